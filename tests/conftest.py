"""Shared test settings, and the game from another package every game-wide test runs on."""

import os
from pathlib import Path

from hypothesis import HealthCheck, settings

from fixtures.installed import install

# Take-away (tests/fixtures/extgame) is a package of its own with a `trapworks.games` entry
# point: installed here as a distribution before any test lists the games, it is found the way
# any installed game is, so every test that iterates the games checks the contract on a game
# that lives outside trapworks and declares only `game` and `state`.
EXTERNAL_GAME = "take-away"
install(Path(__file__).parent / "fixtures" / "extgame")

# Password hashing at cheap costs (argon2id still, ~1 ms a hash instead of 0.25 CPU s at the
# production default): every sign-up and log-in of the account, community and cluster tests, and
# of the test servers and cluster nodes, which inherit the environment. Set before the server is
# imported. The tests of hashing's cost (the sign-up flood that must not starve log-ins) remove it
# for their servers; a test checks the production default is argon2-cffi's (test_accounts_api.py).
os.environ.setdefault("TRAPWORKS_PASSWORD_HASH", "t=1,m=1024,p=1")

# Property tests: a fixed profile in CI so the run is reproducible and bounded.
settings.register_profile("ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def share_one_ssl_context_between_httpx_clients() -> None:
    """Every `httpx.get()`/`post()` and every `httpx.Client` (FastAPI's TestClient is one) builds a
    new SSL context, reading and parsing certifi's CA bundle: 37 ms of CPU each on this machine,
    though the tests speak plain HTTP to loopback servers. Polling loops and API-driven games made
    hundreds of them a test (the French pages' Mouse Trap game, 240 plies by the API: 11 CPU s of
    client, 1 of server). The default context (verify=True, no client certificate, the same
    environment) is made once and shared, as httpx's docs advise (`verify=ctx`); any other
    arguments build their own as before. Verification is unchanged: the same context, reused."""
    try:
        from httpx._transports import default as transports
    except ImportError:  # another httpx layout: every client builds its own, only slower
        return
    build = transports.create_ssl_context
    made: dict[tuple, object] = {}

    def create_ssl_context(verify=True, cert=None, trust_env=True):
        if verify is not True or cert is not None or not trust_env:
            return build(verify=verify, cert=cert, trust_env=trust_env)
        key = (os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR"))
        if key not in made:
            made[key] = build(verify=verify, cert=cert, trust_env=trust_env)
        return made[key]

    transports.create_ssl_context = create_ssl_context


share_one_ssl_context_between_httpx_clients()

ARTIFACTS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "artifacts")


def pytest_configure(config):
    # TRAPWORKS_CPU_REPORT=path: each test's CPU seconds, this process and its children (cpu_report.py).
    if os.environ.get("TRAPWORKS_CPU_REPORT"):
        import cpu_report

        config.pluginmanager.register(cpu_report, "trapworks_cpu_report")


# The fast lane (`pytest -m "not slow" --ignore=tests/web`, README) leaves out what costs minutes:
# besides the tests marked `slow` one by one, every test that drives Chromium (tests/community has
# some), the files of scripts/test.sh's heavy lane, and the tests that start a Ray cluster (64 +
# 23 CPU s in the fast lane, docs/testing.md). The full command runs them all.
LEFT_OUT_OF_THE_FAST_LANE = (
    "tests/booby_trap/test_at_rest.py",
    "tests/dead_end_drive/test_dd_batch.py",
    "tests/research/test_vector_env",
    "tests/sim/test_ray.py",
    "tests/sim/test_ray_no_workers.py",
    # The fast lane's costliest tests, over 2.5 CPU s each (TRAPWORKS_CPU_REPORT, docs/testing.md):
    # statistical and exhaustive checks, CLI runs that start the engines, the report and the
    # notebook, each several seconds; together about half the lane's CPU. The full command runs them.
    "tests/mouse_trap/test_batch.py::test_explore_uses_the_batched_engine_and_says_so",  # 25 CPU s
    "tests/sim/test_notebook.py::test_the_notebook_reproduces_the_reports_seat_table",  # 19
    "tests/sim/test_explore.py::test_explore_writes_a_report_that_finds_a_real_difference",  # 16
    "tests/last_mouse_lost/test_solver.py::test_every_standard_board_position_advanced",  # 13
    "tests/dead_end_drive/test_dd_hidden.py::test_no_view_or_event_leaks_another_seats_secrets",  # 12
    "tests/last_mouse_lost/test_solver.py::test_every_board_up_to_5_rows_of_7_",  # 12 + 6
    "tests/last_mouse_lost/test_batch.py::test_batched_outcomes_have_the_kernels_distribution",  # 11 + 3
    "tests/test_citations.py::test_missing_rulebooks_are_one_skip_and_a_failure_where_required",  # 10
    "tests/mouse_trap/test_mt_invariants.py::test_random_play_keeps_the_invariants",  # 10
    "tests/mouse_trap/test_batch.py::test_tournament_uses_the_batched_engine_and_says_so",  # 10
    "tests/mouse_trap/test_batch.py::test_simulate_uses_the_batched_engine_and_says_so",  # 9
    "tests/mouse_trap/test_batch.py::test_batched_outcomes_have_the_kernels_distribution",  # 8 + 4
    "tests/research/test_kernel_hidden_chance.py::test_the_kernels_chance_nodes_are",  # 8 + 6
    "tests/dead_end_drive/test_dd_end_reveal.py::test_every_secret_is_in_every_view",  # 7
    "tests/booby_trap/test_agents_cli.py::test_heuristic_beats_random_clearly",  # 7
    "tests/booby_trap/test_agents_cli.py::test_the_oracle_beats_the_touch_heuristic",  # 4
    "tests/sim/test_analysts.py::test_every_comparison_has_a_difference_with_an_interval_a_verdict_and",  # 7
    "tests/sim/test_analysts.py::test_reports_read_columns_not_whole_tables",  # 5
    "tests/sim/test_analysts.py::test_tournament_with_fewer_agents_than_seats_says_so",  # 5
    "tests/sim/test_analysts.py::test_keep_records_and_replay_a_row_by_its_seed",  # 3
    "tests/research/test_openspiel.py::test_openspiel_ismcts_bot_plays_the_hidden_information_games",  # 7
    "tests/mouse_trap/test_mt_strong_agents.py::test_double_catch_beats_the_heuristic",  # 6
    "tests/example_game/test_example_game.py::test_it_plays_in_the_browser_with_the_generic_renderer",  # 6
    "tests/research/test_cfr_example.py",  # 4 + 4
    "tests/dead_end_drive/test_dd_agents_cli.py::test_cli_simulate_and_play",  # 4
    "tests/last_mouse_lost/test_engine.py::test_bitboard_moves_agree_with_the_rows",  # 4
    "tests/last_mouse_lost/test_properties.py::test_position_text_round_trips",  # 4
    "tests/core/test_contract.py::test_random_games_end[booby-trap",  # 4
    "tests/community/test_swiss.py::test_a_swiss_tournament_of_five_over_three_rounds",  # 3
    "tests/research/test_example.py::test_q_learning_beats_random_and_learns_the_misere_rule",  # 3
    "tests/dead_end_drive/test_dd_chance_deal.py::test_no_seat_can_tell_two_deals_apart",  # 3 + 3
    "tests/sim/test_ray_operations.py",  # a Ray instance each
    # Measured after those (this session's report): the cluster tests that lose a node, the solver's
    # standard board, the explore checks that run it, and the compiled engine against the reference
    # from random positions under the advanced rules (the basic rules' stay).
    "tests/community/test_arena.py::test_an_arena_of_six_bots_on_two_nodes_survives_a_node_killed",  # 11
    "tests/last_mouse_lost/test_solver.py::test_every_standard_board_position_basic",  # 8
    "tests/sim/test_analysts.py::test_dead_end_drive_rows_say_who_started",  # 6
    "tests/sim/test_explore.py::test_the_interactive_page_never_falls_back_to_a_cdn",  # 4
    "tests/community/test_watch.py::test_live_games_and_the_featured_game_across_two_nodes",  # 4
    "tests/community/test_swiss.py::test_a_round_whose_pairing_node_is_lost",  # 3
    "tests/last_mouse_lost/test_fast.py::test_the_engine_agrees_with_the_reference_from_random_positions"
    "[loser-advanced]",  # 4
    "tests/last_mouse_lost/test_fast.py::test_the_engine_agrees_with_the_reference_from_random_positions"
    "[same-advanced]",  # 3
    "tests/last_mouse_lost/test_fast.py::test_the_engine_agrees_with_the_reference_from_random_positions"
    "[alternate-advanced]",  # 3
    # Measured again (the ninth round, docs/testing.md: the whole fast lane under TRAPWORKS_CPU_REPORT
    # at load 9-19, 1,420 tests, 342 CPU s with a warm numba cache): over 5 minutes again, so every
    # test of 1.8 CPU s or more (at that load) is left out too: 40 tests, 117 CPU s.
    "tests/core/test_views.py::"
    "test_every_view_fits_its_type_and_no_seat_reads_another_seats_private_fields[booby-trap]",  # 7.9
    "tests/core/test_views.py::test_a_seats_view_holds_no_secret_of_another_seat[booby-trap]",  # 7.6
    "tests/core/test_contract.py::test_contract[booby-trap]",  # 6.7
    "tests/sim/test_analysts.py::"
    "test_report_figures_skip_constants_bound_counts_and_show_jams_per_crank",  # 5.6
    "tests/core/test_story.py::test_every_ply_is_told_in_words_without_notation[booby-trap-options3]",  # 3.8
    "tests/agents/test_search_levels_cli.py::"
    "test_tournament_with_fewer_agents_than_seats_fills_and_rotates",  # 3.8
    "tests/last_mouse_lost/test_fast.py::"
    "test_the_engine_agrees_with_the_reference_from_random_positions[winner-advanced]",  # 3.7
    "tests/dead_end_drive/test_dd_issue36.py::test_the_engine_lifts_rule_2_like_the_kernel[1,3]",  # 3.6
    "tests/sim/test_rules_version.py::test_games_that_play_differently_have_another_version",  # 3.6
    "tests/dead_end_drive/test_dd_batch_moves.py::"
    "test_engine_moves_equal_the_kernels_in_random_positions[5-False]",  # 3.3
    "tests/community/test_mail.py::test_a_correspondence_reminder_in_french_and_its_unsubscribe_link",  # 3.1
    "tests/core/test_typed_texts.py::"
    "test_every_event_of_every_game_formats_in_every_language[mouse-trap-turn_limit=12-players=4]",  # 3.0
    "tests/community/test_watch.py::test_a_fischer_clock_lists_both_players_time_left",  # 3.0
    "tests/community/test_safety_and_moderation.py::"
    "test_a_personal_mute_hides_the_muted_players_lines_written_as_a_spectator_everywhere",  # 2.9
    "tests/mouse_trap/test_mt_agent_cli.py::test_cli_simulate",  # 2.7
    "tests/dead_end_drive/test_dd_chance_deal.py::test_the_terminal_tells_no_hidden_draw",  # 2.6
    "tests/community/test_swiss.py::"
    "test_a_game_made_by_a_node_lost_before_recording_it_is_not_made_again",  # 2.6
    "tests/test_citations.py::test_citations_are_in_the_rulebooks",  # 2.5
    "tests/community/test_mail.py::test_password_reset_end_to_end_through_smtp",  # 2.4
    "tests/community/test_watch.py::test_an_untimed_game_leaves_the_live_list_after_its_first_hour",  # 2.4
    "tests/dead_end_drive/test_dd_batch_moves.py::"
    "test_engine_moves_equal_the_kernels_in_random_positions[1-False]",  # 2.4
    "tests/community/test_profiles.py::test_results_by_opponent",  # 2.3
    "tests/community/test_safety_and_moderation.py::"
    "test_a_report_keeps_the_line_and_a_moderator_mutes_warns_bans_with_an_audit_trail",  # 2.3
    "tests/community/test_mail.py::"
    "test_mail_goes_over_starttls_and_logs_in_with_the_urls_user_and_password",  # 2.2
    "tests/dead_end_drive/test_dd_agents_cli.py::test_terminal_game_between_agents_runs_to_the_end",  # 2.1
    "tests/sim/test_explore_players.py::test_explore_and_simulate_take_the_fixed_count",  # 2.1
    "tests/example_game/test_example_game.py::test_it_plays_over_the_web_api_and_websocket",  # 2.1
    "tests/last_mouse_lost/test_engine.py::"
    "test_move_tables_are_bounded_by_the_board_not_by_play[advanced]",  # 2.0
    "tests/community/test_arena_loop.py::test_a_game_being_played_is_not_dropped",  # 2.0
    "tests/community/test_safety_and_moderation.py::"
    "test_a_personal_mute_keeps_the_muted_players_lines_from_the_muters_sockets",  # 2.0
    "tests/last_mouse_lost/test_fast.py::"
    "test_compiled_and_pure_states_play_the_same_games[options3-advanced]",  # 1.9
    "tests/layers/test_function_sizes.py::test_no_function_is_over_150_lines_and_at_most_10_over_80",  # 1.9
    "tests/core/test_typed_texts.py::"
    "test_every_event_of_every_game_formats_in_every_language"
    "[mouse-trap-turn_limit=12-variant=original-players=3]",  # 1.9
    "tests/sim/test_runs.py::"
    "test_each_game_has_its_own_statistics[booby-trap-options2-agents2-columns2]",  # 1.9
    "tests/research/test_example.py::test_the_example_gives_the_same_figures_twice",  # 1.9
    "tests/research/test_openspiel.py::test_cfr_exploitability_falls_on_a_small_board",  # 1.8
    "tests/sim/test_runs.py::test_ctrl_c_keeps_finished_games_and_resume_completes",  # 1.8
    "tests/community/test_mail.py::"
    "test_an_unreachable_smtp_server_keeps_the_mail_and_it_goes_after_a_restart",  # 1.8
    "tests/research/test_hidden_chance.py::"
    "test_small_dead_end_drive_exploitability_differs_from_perfect_information",  # 1.8
    "tests/community/test_safety_and_moderation.py::test_admin_grant_moderator_on_the_command_line",  # 1.8
)


def pytest_collection_modifyitems(config, items):
    import pytest

    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.slow)
        elif item.nodeid.startswith(LEFT_OUT_OF_THE_FAST_LANE):
            item.add_marker(pytest.mark.slow)
