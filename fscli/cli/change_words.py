"""The words that name a change: ``limits set``'s TARGET and SETTING=VALUE words, which
``limits set`` writes and every ``--with`` (sshare, sprio, tree, limits check) applies in
memory. One parser for both, so that a what-if refuses what the write would refuse."""

from __future__ import annotations

import functools


@functools.cache
def keys() -> dict[str, str]:
    """alias -> canonical key of the words, made on first use: sshare and sprio declare
    ``--with`` on every run, and the key tables import the QOS command and the limits."""
    from fscli.cli.qos import QOS_SETTINGS
    from fscli.cli.words import key_table

    base = {
        "cluster": ("clusters",),
        "account": ("accounts", "acct"),
        "user": ("users",),
        "partition": ("partitions",),
        "qos": ("qoslevel",),
        "defaultqos": ("defqos",),
        "fairshare": ("shares",),
        **QOS_SETTINGS,
        "maxtime": (),
        "maxnodes": (),
        "minnodes": (),
    }
    return {**key_table(base, "assoc"), **key_table({}, "qos")}


TARGET_HELP = "account=A | user=U [account=A] [partition=P] | qos=Q | partition=P | cluster=C"
SETTABLE = {
    "assoc": ("fairshare", "qos", "defaultqos", "priority"),
    "qos": ("priority", "flags", "usagefactor", "limitfactor", "usagethreshold", "gracetime"),
    "partition": ("maxtime", "maxnodes", "minnodes", "qos"),
}


def target_and_changes(words, command: str):
    """(Target, changes) from ``limits set`` words: changes as the target's writer takes them."""
    from fscli.cli.assoc_words import assoc_changes
    from fscli.cli.partition import partition_values
    from fscli.cli.qos import qos_changes
    from fscli.cli.words import parse_words
    from fscli.errors import UsageProblem

    parsed = parse_words(words, keys(), command)
    if parsed.names:
        raise UsageProblem(
            f"unexpected word '{parsed.names[0]}' in {command}: "
            f"expected KEY=VALUE (target: {TARGET_HELP})"
        )
    target = parse_target(parsed, command)
    check_settable(parsed, target.kind, target.describe())
    if not parsed.values:
        raise UsageProblem(f"nothing to set on {target.describe()}: give LIMIT=VALUE words")
    if target.kind == "qos":
        return target, qos_changes(parsed, command)
    if target.kind == "partition":
        return target, partition_values(parsed)
    return target, assoc_changes(parsed, command)


def parse_target(parsed, command: str):
    from fscli.cli.words import split_list
    from fscli.engine.limits.target import ASSOC, PARTITION, QOS, Target
    from fscli.errors import UsageProblem

    get = parsed.select.get
    value = {key: word.value.strip() for key, word in parsed.select.items()}
    for key, text in value.items():
        if not text:  # "account=" would name an account called ""
            raise UsageProblem(f"'{key}=' needs a name in {command} (target: {TARGET_HELP})")
    cluster = value.get("cluster")
    if get("user"):
        return Target(
            ASSOC,
            cluster,
            value.get("account", "").lower() or None,
            value["user"].lower(),
            value.get("partition"),
        )
    if get("partition") and get("account"):
        raise UsageProblem(
            f"partition= needs user= in {command}: partition limits on an "
            "account are not an association (use the partition's own limits)"
        )
    if get("account"):
        return Target(ASSOC, cluster, value["account"].lower())
    if get("partition"):
        return Target(PARTITION, cluster, partition=value["partition"])
    qos = parsed.values.get("qos")
    if qos is not None and cluster is None:
        del parsed.values["qos"]
        if qos.op != "=":
            raise UsageProblem(f"'qos{qos.op}' cannot name the target of {command}: use qos=NAME")
        names = [q.lower() for q in split_list(qos.value)]
        if not names:
            raise UsageProblem(f"'qos=' needs a name in {command} (target: {TARGET_HELP})")
        return Target(QOS, qos=names)
    if cluster:
        return Target(ASSOC, cluster, "root")
    raise UsageProblem(f"name the target of {command}: {TARGET_HELP}")


def check_settable(parsed, kind: str, what: str) -> None:
    from fscli.engine.limits import definitions as limitdefs
    from fscli.errors import UsageProblem

    for key in parsed.values:
        if key in SETTABLE[kind]:
            continue
        defn = limitdefs.lookup(key)
        if defn is not None and kind in defn.scopes:
            continue
        if defn is not None and kind != "partition":
            other = "an association" if limitdefs.ASSOC in defn.scopes else "a QOS"
            raise UsageProblem(f"{defn.name} is {other} limit; it cannot be set on {what}")
        allowed = ", ".join(SETTABLE[kind])
        raise UsageProblem(
            f"'{defn.name if defn else key}' cannot be set on {what}; "
            f"allowed there: {allowed}" + (" and the limits" if kind != "partition" else "")
        )


def split_shell(text: str) -> list[str]:
    """A ``--with`` value as shell words; unbalanced quotes are the user's error, not ours."""
    import shlex

    from fscli.errors import UsageProblem

    try:
        return shlex.split(text)
    except ValueError as exc:
        raise UsageProblem(f"--with {text!r}: {exc}") from None


def whatif_change(text: str, command: str):
    """One ``--with 'TARGET SETTING=VALUE...'`` as an engine what-if change: the words
    ``limits set`` takes, parsed by :func:`target_and_changes`, where ``fairshare``,
    ``priority`` and ``usagefactor`` may also be relative (``+50``, ``-10%``): such a word
    is parsed with a placeholder and made absolute per object when applied."""
    from fscli.engine.limits.whatif import Change
    from fscli.engine.relative import RELATIVE_KEYS, Relative, parse_relative

    relative: dict[str, Relative] = {}
    words = []
    for word in split_shell(text):
        key, sep, value = word.partition("=")
        canon = keys().get(key.strip().lower(), "")
        found = parse_relative(value) if sep and canon in RELATIVE_KEYS else None
        if found is not None:
            relative[canon] = found
            word = f"{key}=1"  # valid for every relative key: the target is checked as usual
        words.append(word)
    target, changes = target_and_changes(words, command)
    return Change(target, changes, relative, " ".join(split_shell(text)))


def whatif_config(text: str):
    """One ``--with-config KEY=VALUE`` as (canonical key, value): checked as ``config set``
    checks it, or a relative value (``PriorityWeightFairshare=+1000``)."""
    from fscli.engine.config import canonical_key, validate
    from fscli.engine.relative import parse_relative
    from fscli.errors import UsageProblem

    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise UsageProblem(f"--with-config: expected KEY=VALUE, got '{text}'")
    canon = canonical_key(key)
    relative = parse_relative(value)
    if relative is not None:
        return canon, relative
    return validate(canon, value)


def whatif(with_texts, config_texts, always: bool, command: str):
    """The :class:`fscli.engine.whatif.WhatIf` of a view's ``--with``, ``--with-config``
    and ``--as-if-always``; None when none is given."""
    from fscli.errors import UsageProblem

    if always and not config_texts:
        raise UsageProblem("--as-if-always needs --with-config")
    if not with_texts and not config_texts:
        return None  # without importing the what-if engine: a quarter of sshare's imports
    from fscli.engine.whatif import WhatIf

    trees = [text for text in with_texts if "=" not in text]
    if len(trees) > 1:
        raise UsageProblem(f"--with takes one tree file, not {len(trees)}: {', '.join(trees)}")
    changes = [whatif_change(text, f"{command} --with") for text in with_texts if "=" in text]
    tree = (tree_text(trees[0]), trees[0]) if trees else None
    return WhatIf(changes, dict(map(whatif_config, config_texts)), always, tree)


def tree_text(path: str) -> str:
    """The YAML text of a ``--with tree.yaml`` (a value without ``=`` is a file: every
    change in words has one)."""
    from fscli.errors import UsageProblem

    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise UsageProblem(f"--with {path}: cannot read the tree file: {reason}") from None


def whatif_options(func):
    """``--with``, ``--with-config`` and ``--as-if-always`` (passed as ``whatif``: a
    :class:`fscli.engine.whatif.WhatIf` or None), for the views that show a what-if."""
    import functools

    import click

    @click.option(
        "--with",
        "with_texts",
        multiple=True,
        metavar="'TARGET SETTING=VALUE...' | TREE.yaml",
        help="Show before and after this change (limits set's words; fairshare=, "
        "priority=, usagefactor= may be relative: +50, -10%), or after fscli apply "
        "TREE.yaml. Nothing is written.",
    )
    @click.option(
        "--with-config",
        "config_texts",
        multiple=True,
        metavar="KEY=VALUE",
        help="Show before and after this setting (config set's keys), from --at on.",
    )
    @click.option(
        "--as-if-always",
        "always",
        is_flag=True,
        help="--with-config as if the setting had always been so (the usage re-charged).",
    )
    @functools.wraps(func)
    def wrapper(*args, with_texts, config_texts, always, **kwargs):
        path = click.get_current_context().command_path.split()[1:]  # "limits show"
        name = " ".join(path) or func.__name__.rstrip("_")
        return func(*args, whatif=whatif(with_texts, config_texts, always, name), **kwargs)

    return wrapper
