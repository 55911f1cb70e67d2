"""Shared fixtures.

``spec_dir``: the official MCP schemas, laid out as ``<revision>/schema.json`` (plus
``examples/`` where the mirror has them). The project never commits these files; it pins them
by URL + sha256 in ``schema/revisions.json``. Tests read them from the local mirror beside the
checkout (``../shared/mcp-spec``, or ``$MCPGEN_SPEC_DIR``) and otherwise fall back to
``mcpgen protocol pull`` (a user's machine, which has the internet).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from mcpgen_runtime.revisions import KNOWN_REVISIONS

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_SPEC = REPO_ROOT.parent / "shared" / "mcp-spec"
# The dependency mode of this run (.ci/run's MCPGEN_DEPS). Installs made by the tests themselves
# (wheel venvs, pre-commit's hook environment) get the same versions as the suite's own venv.
DEPS_MODE = os.environ.get("MCPGEN_DEPS", "locked")
# The locked mode's lock of this Python (3.10, the oldest declared, has its own: lock.sh).
LOCKED = "test.txt" if sys.version_info >= (3, 11) else "test-py3.10.txt"
_LOCK = {"locked": LOCKED, "lowest": "lowest.txt"}.get(DEPS_MODE)
if _LOCK is not None and "PIP_CONSTRAINT" not in os.environ:
    os.environ["PIP_CONSTRAINT"] = str(REPO_ROOT / "constraints" / _LOCK)

# Ctrl-C as a person sends it: a shell starts a background job (`pytest ... &`, a CI runner's
# script) with SIGINT ignored, every child inherits that, and a Python started with SIGINT
# ignored never raises KeyboardInterrupt. The tests that press Ctrl-C on a CLI or a server they
# started then hung (60 s each, then failed). The suite runs with SIGINT handled as in a
# terminal, and so do its children and xdist workers; tests/test_environment.py checks it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Hypothesis: what decides a verdict is the examples, never the wall clock. Its timing checks
# (the per-example deadline, "input generation is slow") measure the machine: on 2 cores shared
# by xdist workers and the servers they start, they failed tests that were correct.
settings.register_profile("mcpgen", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("mcpgen")

REVISIONS = KNOWN_REVISIONS  # schema/revisions.json, through the generated mcp_wire


def _mirror() -> Path | None:
    env = os.environ.get("MCPGEN_SPEC_DIR")
    for cand in ([Path(env)] if env else []) + [SHARED_SPEC]:
        if all((cand / r / "schema.json").is_file() for r in REVISIONS):
            return cand
    return None


@pytest.fixture(scope="session")
def spec_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    mirror = _mirror()
    if mirror is not None:
        return mirror
    cache = tmp_path_factory.mktemp("spec-cache")
    proc = subprocess.run(
        [sys.executable, "-m", "mcpgen", "protocol", "pull", "--cache-dir", str(cache)],
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        pytest.fail(f"no local spec mirror and `mcpgen protocol pull` failed:\n{proc.stderr}")
    return Path(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


# --- the inner loop: `pytest -m fast` ---
# Every test not marked `slow` or `interop` is `fast`. Besides the marks in the test files:
# * the folders of real peers are `interop`: the official conformance suite, Redis;
# * the tests below are `slow`: a second or more each on 2 cores, from `--durations` of the whole
#   suite (servers started and driven, other interpreters, mypy, corpora). A test (or file) named
#   here covers its parametrized cases; tests/test_environment.py checks every entry still
#   names collected tests.
PEER_DIRS = ("tests/conformance/", "tests/state/")
SLOW_TESTS = (
    "tests/apps/test_apps_runtime.py::test_extension_advertised_on_discover",
    "tests/auth/test_client_dpop.py::test_bearer_token_stays_bearer",
    "tests/auth/test_client_dpop.py::test_bound_token_end_to_end",
    "tests/auth/test_client_dpop.py::test_default_is_bearer_until_a_dpop_challenge",
    "tests/auth/test_client_dpop.py::test_file_storage_keeps_the_key_with_its_tokens",
    "tests/auth/test_client_dpop.py::test_nonces_of_both_servers",
    "tests/auth/test_client_dpop.py::test_tool_client_with_a_bound_token_on_a_generated_server",
    "tests/auth/test_client_grants.py::test_id_jag_exchanged_then_presented",
    "tests/auth/test_client_grants.py::test_pull_and_drift_with_a_workload_token",
    "tests/auth/test_client_grants.py::test_token_file_gone_at_connect_is_the_clients_error",
    "tests/auth/test_client_grants.py::test_workload_token_from_a_file",
    "tests/auth/test_client_grants.py::test_workload_token_from_the_environment_with_dpop",
    "tests/auth/test_client_grants.py::test_workload_token_is_only_sent_to_its_audience",
    "tests/auth/test_clients.py::test_client_credentials",
    "tests/auth/test_clients.py::test_fixed_token_and_no_token",
    "tests/auth/test_clients.py::test_pull_and_drift_reach_a_protected_server",
    "tests/auth/test_clients.py::test_pull_signs_in_through_the_browser",
    "tests/auth/test_clients.py::test_refresh_token_before_a_new_sign_in",
    "tests/auth/test_clients.py::test_sign_in_with_authorization_code_step_up_and_refresh",
    "tests/auth/test_discovery_scopes.py",
    "tests/auth/test_dpop_server.py::test_a_proof_replayed_on_another_replica_is_refused",
    "tests/auth/test_dpop_server.py::test_attacks_are_refused_with_a_dpop_challenge",
    "tests/auth/test_dpop_server.py::test_dpop_off_is_bearer_only",
    "tests/auth/test_dpop_server.py::test_state_remembers_once",
    "tests/auth/test_dpop_server.py::test_valid_proofs_get_through",
    "tests/auth/test_fuzz.py::test_fuzzed_authorization_headers",
    "tests/auth/test_fuzz.py::test_still_serving_after_the_fuzz",
    "tests/auth/test_resource_server.py::test_a_flood_of_unknown_kids_is_rate_limited",
    "tests/auth/test_resource_server.py::test_bad_auth_settings_refuse_to_start",
    "tests/auth/test_resource_server.py::test_expose_token_hands_handlers_the_raw_token",
    "tests/auth/test_resource_server.py::test_introspection_for_opaque_tokens",
    "tests/auth/test_resource_server.py::test_jwks_endpoint_down_fails_closed_with_one_log_line",
    "tests/auth/test_resource_server.py::test_key_rotation",
    "tests/auth/test_resource_server.py::test_runtime_refuses_what_the_front_did_not_gate",
    "tests/check/test_check_cli.py::test_duplicate_key_keeps_its_old_id_as_an_alias",
    "tests/check/test_check_cli.py::test_generated_manifests_are_clean",
    "tests/check/test_check_cli.py::test_repeated_findings_collapse_but_errors_never_do",
    "tests/check/test_check_cli.py::test_valid_schemas_never_reach_jsonschema",
    "tests/check/test_dialects.py::test_fast_path_agrees_with_jsonschema",
    "tests/check/test_profiles.py::test_config_target",
    "tests/check/test_robustness.py::test_rules_and_breaking_survive_any_values",
    "tests/client/test_bad_input.py::test_good_server_works",
    "tests/client/test_bad_input.py::test_per_call_timeout_with_options",
    "tests/client/test_bad_input.py::test_protocol_error_carries_code_message_and_data",
    "tests/client/test_bad_input.py::test_pull_and_call_older_revisions",
    "tests/client/test_bad_input.py::test_pull_invalid_schemas_and_hostile_names",
    "tests/client/test_bad_input.py::test_pull_prints_the_client_command_and_it_works_as_printed",
    "tests/client/test_bad_input.py::test_pull_silent_server_times_out",
    "tests/client/test_bad_input.py::test_pull_unreachable_url",
    "tests/client/test_bad_input.py::test_silent_server_connect_timeout",
    "tests/client/test_bad_input.py::test_timeout",
    "tests/client/test_cli_compiled.py::test_the_compiled_path_answers_as_the_sdk_path",
    "tests/client/test_ctrl_c.py::test_ctrl_c_at_each_moment_ends_the_cli",
    "tests/client/test_cli_generated.py::test_a_json_rpc_error_is_an_answer_not_an_unreachable_server",
    "tests/client/test_cli_generated.py::test_calls_print_json",
    "tests/client/test_cli_generated.py::test_failures_have_exit_codes",
    "tests/client/test_cli_generated.py::test_help_is_typed_from_the_schemas",
    "tests/client/test_cli_generated.py::test_mypy_strict_on_the_generated_cli",
    "tests/client/test_cli_generated.py::test_over_http_narrowed_by_the_environment",
    "tests/client/test_cli_generated.py::test_resources_and_prompts",
    "tests/client/test_cli_generated.py::test_skills_list_and_read",
    "tests/client/test_cli_generated.py::test_the_servers_stderr_shows_only_when_it_may_explain_a_failure",
    "tests/client/test_cli_generated.py::test_unreachable_servers_exit_3",
    "tests/client/test_generate.py::test_cli_writes_then_noop_then_check",
    "tests/client/test_generate.py::test_edge_schemas_generate_typed_methods",
    "tests/client/test_generate.py::test_mypy_strict_on_generated_weather_client",
    "tests/client/test_hostile.py::test_fixed_hostile_manifest_passes_mypy_strict",
    "tests/client/test_hostile.py::test_hostile_manifest_compiles_and_injects_nothing",
    "tests/client/test_http_headers.py::test_server_requires_the_header",
    "tests/client/test_pull_skills.py::test_drift_compares_the_live_skills",
    "tests/client/test_pull_skills.py::test_pull_writes_the_skill_folders_and_they_serve_the_same_skill",
    "tests/client/test_real_servers.py::test_pull_check_generate_call_drift",
    "tests/client/test_ruff_stable.py::test_client_packages_are_black_clean",
    "tests/client/test_runtime_client.py::test_pulled_yaml_round_trips_any_json",
    "tests/client/test_surface_client.py::test_drift_reads_every_list_and_reports_a_missing_prompt",
    "tests/client/test_surface_client.py::test_read_expand_get_and_complete",
    "tests/client/test_tasks.py::test_ctrl_c_in_the_cli_cancels_the_task",
    "tests/client/test_tasks.py::test_the_cli_shows_the_task_status_and_prints_the_result",
    "tests/client/test_tasks_server.py::test_tasks_on_the_2026_wire",
    "tests/client/test_tasks_server.py::test_the_cli_shows_progress_and_ctrl_c_cancels",
    "tests/client/test_tasks_server.py::test_the_sdk_call_path_gets_the_final_result",
    "tests/client/test_toolsets.py::test_a_narrowed_client_verifies_only_its_tools",
    "tests/client/test_toolsets.py::test_the_generated_client_knows_the_toolsets",
    "tests/docs_cmd/test_docs.py::test_byte_stable",
    "tests/docs_cmd/test_docs.py::test_server_writes_the_reference_beside_the_package",
    "tests/interop/test_wire_fuzz.py::test_every_request_gets_one_answer_and_no_internal_error",
    "tests/manifest/test_bad_inputs.py::test_cli_check_on_the_whole_corpus",
    "tests/manifest/test_bad_inputs.py::test_ten_megabyte_json_loads_and_locates_an_error_at_the_end",
    "tests/manifest/test_skills.py::test_generation_bundles_the_folder_byte_for_byte",
    "tests/manifest/test_structure.py::test_fast_path_agrees_with_jsonschema",
    "tests/openapi/test_corpus.py",
    "tests/openapi/test_external_refs.py::test_allowed_files_become_defs_and_the_result_checks_and_generates",
    "tests/openapi/test_forward_import.py::test_the_generated_server_forwards_what_it_should",
    "tests/openapi/test_github.py::test_github_whole_and_repos",
    "tests/openapi/test_import.py::test_a_fastapi_app_imports_checks_and_generates",
    "tests/openapi/test_import.py::test_a_handler_written_in_handlers_py_wins",
    "tests/openapi/test_import.py::test_curation_survives_a_reimport_and_check_reports_upstream_changes",
    "tests/openapi/test_import.py::test_generated_handlers_call_the_api",
    "tests/openapi/test_import.py::test_selection_by_tag_operation_and_path",
    "tests/protocol/test_bad_input.py::test_missing_ref_target_after_other_revisions_were_built",
    "tests/protocol/test_bad_input.py::test_wrong_hash",
    "tests/protocol/test_cli_hygiene.py::test_probe_detects_heavy_imports",
    "tests/protocol/test_generation.py::test_check_passes_on_the_committed_tree",
    "tests/protocol/test_generation.py::test_docstrings_option_does_bring_the_prose_in",
    "tests/protocol/test_generation.py::test_generation_is_deterministic_and_equals_the_committed_tree",
    "tests/protocol/test_generation.py::test_mypy_strict_passes_on_generated_package",
    "tests/publish/test_bundle_contents.py",
    "tests/runtime/lean/test_boot_handover.py::test_no_request_is_lost_when_the_handover_splits_a_line",
    "tests/runtime/lean/test_bridge_stdio.py",
    "tests/runtime/lean/test_differential.py",
    "tests/runtime/lean/test_hostile_checks.py",
    "tests/runtime/lean/test_hostile_flow.py",
    "tests/runtime/lean/test_hostile_fuzz.py",
    "tests/runtime/lean/test_hostile_http.py",
    "tests/runtime/lean/test_hostile_stdio.py",
    "tests/runtime/lean/test_stdio_end_of_input.py",
    "tests/runtime/lean/test_http_differential.py::test_lean_front_answers_as_the_sdk_does",
    "tests/runtime/lean/test_http_session_clock.py::test_a_session_used_only_through_the_front_expires_as_the_sdk_would",
    "tests/runtime/lean/test_http_sessions.py::test_session_posts_answer_as_the_sdk_does",
    "tests/runtime/lean/test_lazy_sdk.py::test_protocol_errors_from_handlers_are_answered_alike_by_both_engines",
    "tests/runtime/lean/test_lazy_sdk_tasks.py::test_a_tasks_method_on_the_handshake_wire_is_answered_as_by_the_sdk_engine",
    "tests/runtime/lean/test_lazy_sdk_tasks.py::test_tasks_are_answered_as_the_sdk_engine_answers_them",
    "tests/runtime/tasks/test_discovery_tasks.py",
    "tests/runtime/tasks/test_memory.py::test_a_finished_task_expires_after_keep_seconds",
    "tests/runtime/tasks/test_memory.py::test_a_task_runs_to_completion_and_shows_its_progress",
    "tests/runtime/tasks/test_memory.py::test_status_notifications_on_subscriptions_listen",
    "tests/runtime/tasks/test_replicas.py",
    "tests/runtime/test_schemainline.py::test_exponential_sharing_is_refused",
    "tests/runtime/test_skills.py::test_skills_are_served",
    "tests/runtime/test_validation_agrees.py::test_agrees_with_jsonschema",
    "tests/server/test_awkward_types.py::test_awkward_schema_generates_a_server_that_serves_it",
    "tests/server/test_check_gate.py::test_check_config_and_inline_ignores_apply",
    "tests/server/test_check_gate.py::test_warnings_are_printed_and_generation_goes_on",
    "tests/server/test_dependencies.py::test_changed_ref_file_is_drift_and_rerun_regenerates",
    "tests/server/test_dependencies.py::test_deleted_ref_file_is_input_error_and_tree_unchanged",
    "tests/server/test_dependencies.py::test_marker_records_relative_dependencies_and_no_absolute_path",
    "tests/server/test_dependencies.py::test_marker_without_dependencies_regenerates",
    "tests/server/test_dependencies.py::test_moving_the_project_keeps_it_up_to_date",
    "tests/server/test_dependencies.py::test_nested_ref_file_change_is_seen",
    "tests/server/test_dependencies.py::test_ref_added_later_is_tracked",
    "tests/server/test_dependencies.py::test_retargeted_symlinked_directory_is_seen",
    "tests/server/test_dependencies.py::test_unchanged_inputs_take_the_fast_path",
    "tests/server/test_first_hour.py::test_rename_and_new_tool",
    "tests/server/test_first_hour.py::test_start_line_names_transport_url_and_revisions",
    "tests/server/test_generate.py::test_byte_identical_under_different_hash_seeds",
    "tests/server/test_generate.py::test_check_detects_drift_and_noop_is_silent",
    "tests/server/test_http_runtime.py::test_bearer_token_required",
    "tests/server/test_http_runtime.py::test_input_required_retry_on_another_worker",
    "tests/server/test_http_runtime.py::test_legacy_stateless_http_cannot_ask",
    "tests/server/test_load.py::test_http_64_clients",
    "tests/server/test_package_names.py::test_the_list_covers_the_runtime_and_everything_it_needs",
    "tests/server/test_resource_files.py::test_files_are_copied_served_and_tracked",
    "tests/server/test_ruff_stable.py::test_hostile_manifests_are_black_clean",
    "tests/server/test_ruff_stable.py::test_models_of_random_schemas_are_black_clean",
    "tests/server/test_runtime_version.py::test_regeneration_never_runs_stale_bytecode",
    "tests/server/test_toolsets.py::test_http_workers_serve_the_same_subset",
    "tests/server/test_upgrade.py::test_upgrade_from_the_copied_runtime_layout",
    "tests/test_byte_stable.py",
    "tests/test_environment.py::test_every_slow_entry_names_collected_tests",
    "tests/test_golden.py::test_golden",
    "tests/test_golden.py::test_golden_packages_import",
    "tests/test_init.py::test_init_check_server_call",
    "tests/test_init.py::test_init_never_overwrites",
    "tests/test_init.py::test_printed_next_step_runs_as_printed_and_registration_works",
    "tests/test_inprocess.py::test_in_process_answers_as_the_process",
    "tests/test_typing.py",
)


def _mark_speed(item: pytest.Item) -> None:
    if item.nodeid.startswith(PEER_DIRS):
        item.add_marker(pytest.mark.interop)
    if item.nodeid.startswith(SLOW_TESTS):
        item.add_marker(pytest.mark.slow)
    if item.get_closest_marker("slow") is None and item.get_closest_marker("interop") is None:
        item.add_marker(pytest.mark.fast)


@pytest.hookimpl(tryfirst=True)  # before `-m` selects by the marks set here
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        _mark_speed(item)
