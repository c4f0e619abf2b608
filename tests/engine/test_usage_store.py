"""Usage charges read from the store: each cluster sees only its own (one or several)."""

from __future__ import annotations


def raw_usage_rows(fscli, cluster: str) -> list[str]:
    out = fscli.ok(
        "--cluster",
        cluster,
        "sshare",
        "-a",
        "-P",
        "-n",
        "-o",
        "Account,User,RawUsage",
        at="2026-05-01T00:00:00",
    )
    return out.stdout.splitlines()


def test_charges_stay_with_their_cluster(fscli):
    fscli.ok("-Q", "cluster", "add", "one")
    fscli.ok("-Q", "account", "add", "a")
    fscli.ok("-Q", "user", "add", "u", "account=a")
    fscli.ok("-Q", "usage", "add", "user=u", "account=a", "raw=1000", "at=2026-05-01T00:00:00")
    assert raw_usage_rows(fscli, "one") == ["root||1000", " a||1000", "  a|u|1000"]
    fscli.ok("-Q", "cluster", "add", "two")
    fscli.ok("-Q", "--cluster", "two", "account", "add", "a")
    fscli.ok("-Q", "--cluster", "two", "user", "add", "u", "account=a")
    fscli.ok(
        "-Q",
        "--cluster",
        "two",
        "usage",
        "add",
        "user=u",
        "account=a",
        "raw=7",
        "at=2026-05-01T00:00:00",
    )
    assert raw_usage_rows(fscli, "one") == ["root||1000", " a||1000", "  a|u|1000"]
    assert raw_usage_rows(fscli, "two")[-1] == "  a|u|7"
