"""A read view is one API call: the store is read once, whatever the form printed."""

from __future__ import annotations

import pytest

AT = "2026-05-01T00:00:00"


@pytest.fixture
def counted(monkeypatch):
    """The calls of ``fscli.api.shares.shares`` (one read of the store each)."""
    import fscli.api.shares as module

    calls: list[tuple] = []
    real = module.shares

    def shares(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "shares", shares)
    return calls


@pytest.mark.parametrize(
    "form",
    [["-P"], ["-p", "-n"], ["--json"], [], ["--sort", "-RawShares", "-P"]],
    ids=["parsable", "parsable-noheader", "json", "table", "sorted"],
)
def test_sshare_long_reads_the_store_once(science, counted, form):
    out = science.ok("sshare", "-a", "-l", *form, at=AT).stdout
    assert "physics" in out
    assert len(counted) == 1


def test_explain_reads_the_store_once(science, counted):
    out = science.ok("sshare", "--explain", "alice/physics", at=AT).stdout
    assert out.startswith("user alice (account physics)")
    assert len(counted) == 1
