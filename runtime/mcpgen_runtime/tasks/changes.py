"""The changes a task goes through, as pure functions of its record (``store.Record``): each
returns the record after, or None when there is nothing to change (the store applies them
atomically, so two replicas never both win)."""

from __future__ import annotations

import time
from typing import Any

from .settings import TaskSettings
from .store import TERMINAL, Record

__all__ = ["TaskChanged", "asking", "ended", "lost", "rerun", "status_message"]


def status_message(message: str) -> Any:
    def change(r: Record) -> Record | None:
        if r["status"] != "working" or r.get("message") == message:
            return None
        return {**r, "message": message, "updated": time.time()}

    return change


def ended(status: str, s: TaskSettings, **payload: Any) -> Any:
    def change(r: Record) -> Record | None:
        if r["status"] in TERMINAL:
            return None  # cancelled meanwhile: it stays cancelled
        now = time.time()
        return {
            **r,
            **payload,
            "status": status,
            "message": None if status == "completed" else r.get("message"),
            "updated": now,
            "expires": now + s.keep_s,
            "runner": None,
        }

    return change


def asking(pending: dict[str, Any], used: dict[str, Any], s: TaskSettings) -> Any:
    from ..server.asking import question_digest

    def change(r: Record) -> Record | None:
        if r["status"] in TERMINAL:
            return None
        now = time.time()
        return {
            **r,
            "status": "input_required",
            "requests": pending,
            "pending": {k: question_digest(v) for k, v in pending.items()},
            "answers": {**(r.get("answers") or {}), **used},
            "updated": now,
            "expires": now + s.keep_s,
            "runner": None,
        }

    return change


def rerun(dead: Any, replica: str) -> Any:
    def change(r: Record) -> Record | None:
        if r["status"] != "working" or r.get("runner") != dead:
            return None
        return {
            **r,
            "runner": replica,
            "attempt": int(r.get("attempt", 1)) + 1,
            "message": "Running again: the replica that ran it stopped",
            "updated": time.time(),
        }

    return change


def lost(dead: Any, error: dict[str, Any], s: TaskSettings) -> Any:
    def change(r: Record) -> Record | None:
        if r["status"] != "working" or r.get("runner") != dead:
            return None
        now = time.time()
        return {
            **r,
            "status": "failed",
            "error": error,
            "message": error["message"],
            "updated": now,
            "expires": now + s.keep_s,
            "runner": None,
        }

    return change


class TaskChanged:
    """A task's new state, for the ``subscriptions/listen`` streams that asked for it."""

    __slots__ = ("task_id", "owner", "detailed")

    def __init__(self, task_id: str, owner: str, detailed: dict[str, Any]) -> None:
        self.task_id, self.owner, self.detailed = task_id, owner, detailed
