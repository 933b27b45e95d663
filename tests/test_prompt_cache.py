"""The prompt-cache policy as rules over tokens: where a round starts, which shared prefix a
prompt adds. No MLX: snapshots here hold no cache, the plan never touches one."""

from harness.backends.prompt_cache import (
    MIN_EXTENSION_TOKENS, MIN_SHARED_TOKENS, Reuse, Snapshot, plan_shared_prefix, plan_start,
    snapshot_at_end)

ALL = Reuse.of("shared")
ROUNDS = Reuse.of("rounds")
NONE = Reuse.of("none")


def snap(tokens) -> Snapshot:
    return Snapshot(tuple(tokens), cache=[])


def seq(n: int, start: int = 0) -> list[int]:
    return list(range(start, start + n))


def test_a_prompt_extending_the_live_cache_appends_to_it():
    plan = plan_start(seq(10), ALL, live=seq(6), live_trimmable=False)
    assert (plan.how, plan.cached, plan.trim) == ("append", 6, 0)


def test_the_last_prompt_token_is_always_run_so_a_prompt_equal_to_the_live_cache_never_appends():
    assert plan_start(seq(6), ALL, live=seq(6)).how == "fresh"
    plan = plan_start(seq(6), ALL, live=seq(6), live_trimmable=True)
    assert (plan.how, plan.cached, plan.trim) == ("trim", 5, 1)


def test_a_diverging_prompt_on_a_trimmable_cache_trims_it_to_the_common_prefix():
    live = seq(8) + [100, 101]
    plan = plan_start(seq(12), ALL, live=live, live_trimmable=True,
                      snapshots=[snap(seq(9))])
    assert (plan.how, plan.cached, plan.trim) == ("trim", 8, 2)


def test_a_diverging_prompt_on_a_cache_that_cannot_be_trimmed_takes_the_longest_snapshot_that_is_a_prefix():
    live = seq(8) + [100, 101]
    snapshots = [snap(seq(4)), snap(seq(7)), snap(seq(5) + [99])]
    plan = plan_start(seq(12), ALL, live=live, live_trimmable=False, snapshots=snapshots,
                      shared=[snap(seq(3))])
    assert (plan.how, plan.cached, plan.snapshot, plan.shared) == (
        "snapshot", 7, snapshots[1], False)


def test_a_snapshot_as_long_as_the_prompt_is_not_taken():
    plan = plan_start(seq(7), ALL, snapshots=[snap(seq(7)), snap(seq(3))])
    assert (plan.how, plan.cached) == ("snapshot", 3)


def test_a_shared_prefix_is_taken_when_it_is_longer_than_the_sessions_snapshots():
    common = snap(seq(6))
    plan = plan_start(seq(12), ALL, live=[50, 51], snapshots=[snap(seq(4))], shared=[common])
    assert (plan.how, plan.cached, plan.snapshot, plan.shared) == ("snapshot", 6, common, True)


def test_the_sessions_snapshot_wins_a_tie_with_a_shared_prefix():
    own = snap(seq(6))
    plan = plan_start(seq(12), ALL, snapshots=[own], shared=[snap(seq(6))])
    assert (plan.snapshot, plan.shared) == (own, False)


def test_a_shared_prefix_is_used_only_when_shared_reuse_is_on_and_the_prompt_starts_with_it():
    assert plan_start(seq(12), ROUNDS, shared=[snap(seq(6))]).how == "fresh"
    assert plan_start(seq(12), ALL, shared=[snap(seq(5) + [77])]).how == "fresh"
    assert plan_start(seq(12), ALL, shared=[snap(seq(6))]).how == "snapshot"


def test_without_round_reuse_neither_the_live_cache_nor_the_sessions_snapshots_are_used():
    none = plan_start(seq(12), NONE, live=seq(6), live_trimmable=True, snapshots=[snap(seq(6))],
                      shared=[snap(seq(6))])
    assert none.how == "fresh"
    shared_only = Reuse(rounds=False, shared=True)
    plan = plan_start(seq(12), shared_only, live=seq(8), snapshots=[snap(seq(8))],
                      shared=[snap(seq(3))])
    assert (plan.how, plan.cached, plan.shared) == ("snapshot", 3, True)


def test_nothing_reusable_means_a_full_prefill():
    plan = plan_start(seq(12), ALL, live=[40, 41, 42], live_trimmable=True,
                      snapshots=[snap([40])], shared=[snap([41, 42])])
    assert (plan.how, plan.cached) == ("fresh", 0)


def test_the_end_of_a_prompt_is_snapshotted_only_when_rounds_are_reused_and_the_cache_cannot_be_trimmed():
    assert snapshot_at_end(ALL, trimmable=False)
    assert not snapshot_at_end(ALL, trimmable=True)
    assert not snapshot_at_end(NONE, trimmable=False)


def test_a_first_prompt_keeps_its_static_part_as_a_shared_prefix():
    plan = plan_shared_prefix(seq(500), [], static=300, previous_first=())
    assert (plan.tokens, plan.base) == (300, None)


def test_a_prefix_shorter_than_the_minimum_is_not_kept():
    assert plan_shared_prefix(seq(500), [], static=MIN_SHARED_TOKENS - 1) is None


def test_a_prefix_only_two_first_prompts_share_must_add_the_extension_minimum_to_the_kept_one():
    kept = [snap(seq(300))]
    a_few_more = seq(300 + MIN_EXTENSION_TOKENS - 1) + [9999]
    assert plan_shared_prefix(seq(900), kept, previous_first=a_few_more) is None
    enough = seq(300 + MIN_EXTENSION_TOKENS) + [9999]
    plan = plan_shared_prefix(seq(900), kept, previous_first=enough)
    assert (plan.tokens, plan.base) == (300 + MIN_EXTENSION_TOKENS, kept[0])


def test_a_prompt_leaving_a_kept_prefix_keeps_the_part_they_share():
    # Tools loaded in a round come after the shared schemas: a kept first prompt of 400
    # tokens and a later prompt that leaves it at 350 share the schemas alone.
    kept = [snap(seq(400))]
    plan = plan_shared_prefix(seq(350) + seq(200, start=5000), kept)
    assert (plan.tokens, plan.base) == (350, None)


def test_a_prompt_that_already_starts_with_a_kept_prefix_covering_as_much_adds_none():
    kept = [snap(seq(300))]
    assert plan_shared_prefix(seq(900), kept, static=300) is None
