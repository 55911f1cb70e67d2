"""The built manifest of bench/bench_discovery.py: a 360-tool back-office suite (36 resources x
10 actions), each tool's description written from its resource's purpose, deterministic.
``mini`` (the bench's test) is its first four resources: 40 tools."""

from __future__ import annotations

from typing import Any

RESOURCES = {
    "invoice": "a bill sent to a customer for goods or services",
    "customer": "a person or company that buys from us",
    "ticket": "a support request raised by a customer",
    "calendar_event": "a meeting or appointment on a calendar",
    "meeting_room": "a bookable conference room in an office",
    "expense_report": "an employee's claim for money spent on company business",
    "purchase_order": "an order we place with a supplier",
    "employee": "a person on the payroll",
    "payroll_run": "one pay period's salary payments",
    "shipment": "a parcel on its way to a customer",
    "warehouse": "a building where stock is stored",
    "product": "an item in the sales catalogue",
    "coupon": "a discount code for checkout",
    "subscription": "a recurring plan a customer pays for",
    "contract": "a signed legal agreement",
    "lead": "a prospective customer in the sales pipeline",
    "campaign": "a marketing e-mail blast",
    "survey": "a questionnaire sent to users",
    "document": "a text file in the shared drive",
    "folder": "a directory of the shared drive",
    "dashboard": "a page of charts of business metrics",
    "alert_rule": "a threshold that pages someone when a metric crosses it",
    "incident": "an outage being handled by the operations team",
    "oncall_schedule": "the rota of who answers pages",
    "database_backup": "a snapshot of a production database",
    "dns_record": "a name-to-address entry of a domain",
    "tls_certificate": "the certificate that secures a website",
    "vm_instance": "a virtual machine in the cloud",
    "storage_bucket": "an object storage container for blobs",
    "api_key": "a secret token that grants programmatic access",
    "webhook": "a URL notified when events happen",
    "audit_log": "the record of who did what and when",
    "job_posting": "an open position advertised to candidates",
    "candidate": "a person applying for a job",
    "vendor": "a supplier we buy from",
    "asset": "a laptop, phone or other company equipment",
}
ACTIONS = {
    "list": "List every {gloss} ({plural}), newest first, with paging.",
    "get": "Read one {noun}: {gloss}, by its identifier.",
    "create": "Create a new {noun} ({gloss}).",
    "update": "Change fields of an existing {noun} ({gloss}).",
    "delete": "Permanently delete a {noun} ({gloss}).",
    "archive": "Archive a {noun} so it is hidden but kept ({gloss}).",
    "restore": "Bring an archived {noun} back ({gloss}).",
    "export": "Export {plural} to a CSV spreadsheet.",
    "share": "Give another user access to a {noun}.",
    "comment": "Add a note to a {noun} that others can read.",
}


def definitions(resources: int | None = None) -> list[dict[str, Any]]:
    """The tools of the first ``resources`` resources (all: 360 tools)."""
    out = []
    for resource, gloss in list(RESOURCES.items())[:resources]:
        noun = resource.replace("_", " ")
        plural = noun + ("es" if noun.endswith(("s", "sh", "ch")) else "s")
        for action, template in ACTIONS.items():
            props: dict[str, Any] = {}
            required: list[str] = []
            if action not in ("list", "create", "export"):
                props["id"] = {"type": "string", "description": f"The {noun}'s identifier."}
                required.append("id")
            if action in ("list", "export"):
                props["limit"] = {"type": "integer", "description": "At most this many."}
            if action in ("create", "update"):
                props["fields"] = {"type": "object", "description": f"The {noun}'s fields."}
            if action == "share":
                props["user"] = {"type": "string", "description": "Who gets access."}
            if action == "comment":
                props["text"] = {"type": "string", "description": "The note."}
            schema: dict[str, Any] = {"type": "object", "properties": props}
            if required:
                schema["required"] = required
            out.append(
                {
                    "name": f"{action}_{resource}",
                    "description": template.format(noun=noun, plural=plural, gloss=gloss),
                    "inputSchema": schema,
                    "outputSchema": {"type": "object"},
                }
            )
    return out


def manifest(resources: int | None = None) -> dict[str, Any]:
    return {
        "server": {"name": "backoffice-suite", "version": "1.0.0"},
        "tools": definitions(resources),
    }
