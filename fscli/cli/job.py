"""``fscli job submit|list|cancel|modify|import`` — the jobs sprio, limits and LSF views compute on."""

from __future__ import annotations

import click

from fscli.cli.complete import NamesCompleter, words_completer
from fscli.cli.output import dry_run_option, output_options, report
from fscli.cli.words import (
    key_table,
    mem_per_node,
    parse_words,
    reject_unused,
    split_list,
    whole_number,
)

SUBMIT_KEYS = key_table(
    {
        "user": ("users", "u"),
        "account": ("acct", "a", "accounts"),
        "partition": ("partitions", "p"),
        "cluster": ("clusters",),
        "qos": (),
        "queue": ("q",),
        "cpus": ("ncpus", "cpu"),
        "nodes": ("node", "n"),
        "slots": (),
        "mem": ("memory",),
        "tres": (),
        "time": ("timelimit", "runlimit", "t"),
        "nice": (),
        "sitefactor": (),
        "submit": ("submittime",),
        "begin": ("eligible", "eligibletime", "begintime"),
        "state": (),
        "start": ("starttime",),
        "end": ("endtime",),
        "cputime": (),
        "id": ("jobid",),
        "count": (),
    },
    None,
)
SUBMIT_SELECT = ("user", "account", "partition", "cluster")
LIST_KEYS = key_table(
    {
        "user": ("users",),
        "account": ("accounts", "acct"),
        "state": ("states",),
        "partition": ("partitions",),
        "queue": ("queues",),
        "cluster": ("clusters",),
    },
    None,
)
SETTINGS = {"context_settings": {"ignore_unknown_options": True}}
LIST_COLUMNS = [
    "JobID",
    "User",
    "Account",
    "Partition",
    "QOS",
    "Queue",
    "State",
    "Submit",
    "Start",
    "End",
    "CPUs",
    "Nodes",
    "Slots",
    "TRES",
    "TimeLimit",
    "Nice",
    "CPUTime",
    "Priority",
    "Reason",
]


@click.group()
def job() -> None:
    """Jobs in the store: what sprio ranks, what limits count, what LSF queues dispatch.

    \b
    Example:
      fscli job submit user=alice account=physics partition=gpu cpus=8
      fscli job list state=pending
      fscli job modify 12 priority=999
    """


def _job_id(text: str, key: str = "job id") -> int:
    """A job id: 1 to the largest the store's 64-bit column holds."""
    from fscli.engine.job_states import MAX_JOB_ID

    return whole_number(key, text, 1, MAX_JOB_ID)


def _seconds(key: str, text: str) -> float:
    from fscli.errors import InvalidValue

    try:
        value = float(text.strip())
    except ValueError:
        value = -1.0
    if not value >= 0 or value == float("inf"):
        raise InvalidValue(f"invalid {key} '{text}': expected seconds, a number >= 0")
    return value


def _time_limit(text: str, queue: str | None) -> int | None:
    """A Slurm job's time limit (INFINITE asked is INFINITE, as sbatch's); an LSF RUNLIMIT
    of UNLIMITED is no run limit."""
    from fscli.engine.timestr import parse_duration_mins, parse_time_limit

    return parse_duration_mins(text, "time limit") if queue else parse_time_limit(text)


def _job_input(parsed, now: int):
    """The submit words as a :class:`JobInput` (values parsed, not yet checked against the store)."""
    from fscli.engine.priority import check_nice, check_site_factor
    from fscli.engine.submit import JobInput
    from fscli.engine.timestr import parse_when
    from fscli.engine.tres import parse_tres
    from fscli.errors import UsageProblem

    get = parsed.get
    if not get("user"):
        raise UsageProblem("need user=NAME: whose job it is")
    queue = get("queue")
    lsf_only, slurm_only = (
        ("slots",),
        ("account", "partition", "qos", "mem", "tres", "cpus", "nodes"),
    )
    for key in slurm_only if queue else lsf_only:
        if get(key) is not None:
            form = "an LSF job (queue=)" if queue else "a Slurm job (no queue=)"
            raise UsageProblem(f"{key}= does not apply to {form}")
    tres = parse_tres(get("tres"), allow_clear=False) if get("tres") is not None else {}
    cpus = whole_number("cpus", get("cpus"), 1) if get("cpus") is not None else tres.pop("cpu", 1)
    nodes = (
        whole_number("nodes", get("nodes"), 1) if get("nodes") is not None else tres.pop("node", 1)
    )
    if "cpu" in tres or "node" in tres:
        raise UsageProblem("give the CPU and node counts once: cpus=/nodes= or in tres=")
    if get("mem") is not None:
        if "mem" in tres:
            raise UsageProblem("give the memory once: mem= (per node) or tres=mem= (total)")
        tres["mem"] = mem_per_node(get("mem")) * nodes
    when = {
        key: parse_when(get(key), now) if get(key) is not None else None
        for key in ("submit", "begin", "start", "end")
    }
    cputime = _seconds("cputime", get("cputime")) if get("cputime") is not None else None
    return JobInput(
        user=get("user"),
        account=get("account"),
        partitions=tuple(split_list(get("partition") or "")),
        qos=get("qos"),
        queue=queue,
        state=(get("state") or "pending").strip().lower(),
        submit=when["submit"],
        eligible=when["begin"],
        start=when["start"],
        end=when["end"],
        cpus=cpus,
        nodes=nodes,
        slots=whole_number("slots", get("slots"), 1) if get("slots") is not None else 1,
        tres=tres,
        time_limit=_time_limit(get("time"), queue) if get("time") else None,
        nice=check_nice(whole_number("nice", get("nice"), None, None)) if get("nice") else 0,
        site_factor=check_site_factor(whole_number("sitefactor", get("sitefactor"), None, None))
        if get("sitefactor")
        else 0,
        cputime=cputime,
        job_id=_job_id(get("id"), "id") if get("id") else None,
    )


@job.command("submit", **SETTINGS)
@click.argument("words", nargs=-1, shell_complete=words_completer(None, SUBMIT_KEYS))
@dry_run_option
@click.pass_obj
def submit(app, words, dry_run) -> None:
    """Put a job in the store, checked like sbatch: association, partition, QOS, and the
    limits that refuse a job at submission (as 'limits check' says: a pending or running
    job it rejects is not stored). A job that gives no memory gets DefMemPerCPU or
    DefMemPerNode from 'config'.

    \b
    Slurm:  user=U [account=A] [partition=P[,P2]] [qos=Q] [cpus=N] [nodes=N] [mem=SIZE]
            [tres=gres/gpu=2,...] [time=T] [nice=N] [sitefactor=N] [submit=TIME] [begin=TIME]
            [state=pending|running|completed] [start=TIME] [end=TIME] [cputime=SECONDS]
    LSF:    user=U queue=Q [slots=N] [state=...] [start=TIME] [end=TIME] [cputime=SECONDS]
            [time=RUNLIMIT]
    Both:   [id=N] (default: the next free id) [count=N] (N identical jobs)
    mem= is per node (as sbatch --mem); submit= defaults to now (--at); a running or
    completed job starts at its submit time unless start= says otherwise. A pending LSF
    job with start= (its planned start) has its slots reserved: bqueues' RESERVED, and
    the job_slots term of the dynamic priority. Prints "Submitted batch job N" like sbatch.

    \b
    Example:
      fscli --at 2026-05-01T12:00 job submit user=alice account=physics partition=gpu cpus=8 time=2:00:00
      fscli job submit user=bob queue=normal slots=4 state=running start=now-1hour
      fscli job submit user=bob queue=normal slots=8 state=pending start=now+2hours
    """
    parsed = parse_words(words, SUBMIT_KEYS, "job submit")
    reject_unused(parsed, SUBMIT_SELECT, "job submit")
    if parsed.names:
        from fscli.errors import UsageProblem

        raise UsageProblem(f"unexpected word '{parsed.names[0]}' in job submit: expected KEY=VALUE")
    spec = _job_input(parsed, app.now)
    count = whole_number("count", text, 1) if (text := parsed.get("count")) else 1
    with app.changes(dry_run) as tx:
        ids, lines = tx.submit_job(spec, count, parsed.get("cluster") or app.cluster_name)
    report(app, lines, dry_run)
    if not dry_run:
        for job_id in ids:
            click.echo(f"Submitted batch job {job_id}")


@job.command("list", **SETTINGS)
@click.argument("words", nargs=-1, shell_complete=words_completer(None, LIST_KEYS))
@output_options
@click.pass_obj
def list_(app, words, out) -> None:
    """List the jobs of the cluster (and LSF jobs), oldest id first.

    Priority is the one an admin fixed with 'job modify ID priority=N' (0 = held);
    blank when the multifactor plugin computes it (see fscli sprio). Reason is what
    squeue's %r would print for a pending job at --at (see 'fscli job why'), None for a
    running one.

    \b
    Filters: user=U account=A state=pending,running partition=P queue=Q
    Example:
      fscli job list state=pending -P
    """
    from fscli.engine.job_states import JOB_STATES
    from fscli.errors import UsageProblem

    parsed = parse_words(words, LIST_KEYS, "job list")
    if parsed.names:
        raise UsageProblem(f"unexpected word '{parsed.names[0]}' in job list: expected KEY=VALUE")
    filters = {
        key: set(split_list(value.lower()))
        for key in ("user", "account", "state", "partition", "queue")
        if (value := parsed.get(key))
    }
    unknown = sorted(filters.get("state", set()) - set(JOB_STATES))
    if unknown:
        raise UsageProblem(
            f"unknown job state '{unknown[0]}' in job list: expected {', '.join(JOB_STATES)}"
        )
    cluster = parsed.get("cluster") or app.cluster_name
    jobs = app.store.jobs(cluster, **filters)
    reasons = (
        _reasons(app, cluster) if any(j.state == "pending" and not j.queue for j in jobs) else {}
    )
    rows = [
        [
            j.id,
            j.user,
            j.account,
            ",".join(j.partitions),
            j.qos,
            j.queue,
            j.state,
            out.when(j.submit),
            out.when(j.start),
            out.when(j.end),
            j.cpus,
            j.nodes,
            j.slots,
            out.tres(j.tres),
            out.minutes(j.time_limit) if j.state != "cancelled" or j.time_limit else None,
            j.nice,
            j.cputime,
            j.admin_priority,
            reasons.get(j.id, "None" if j.state == "running" and j.queue is None else None),
        ]
        for j in jobs
    ]
    out.emit(
        LIST_COLUMNS,
        rows,
        "jobs",
        numeric=("JobID", "CPUs", "Nodes", "Slots", "Nice", "Priority"),
        keep=("JobID", "User", "State", "Submit"),
    )


def _reasons(app, cluster: str | None) -> dict[int, str]:
    """The pending jobs' Reasons; a store whose cluster cannot be scheduled (no root
    association) still lists its jobs, with a warning instead of Reasons."""
    from fscli.errors import FscliError

    try:
        return app.store.job_reasons(cluster, app.now)
    except FscliError as exc:
        click.echo(f"fscli: warning: no Reason column: {exc}", err=True)
        return {}


@job.command("why")
@click.argument("job_id", metavar="JOBID", shell_complete=NamesCompleter("job"))
@output_options
@click.pass_obj
def why(app, job_id, out) -> None:
    """Why a pending job waits: squeue's Reason, the limit that holds it (at which level),
    its priority and rank in its partition with the jobs ahead, the priority factor that
    costs it most, and what would let it run.

    The Reason is the one slurmctld's scheduling pass at --at would leave: jobs taken by
    priority; a limit holds a job with the limit's reason; the first job of a partition
    whose CPUs are not free waits for Resources and every later job there for Priority.
    Slurm sets reasons when its scheduler runs (a submission, a job's end): ask at that
    moment (--at) to see what squeue printed then. -P prints one line: JobID|Reason.

    \b
    Example:
      fscli job why 12
      fscli --at 2026-11-21T15:38:05 job why 10 --json
    """
    answer = app.store.why(_job_id(job_id), app.cluster_name, app.now)
    if out.json:
        import json

        click.echo(json.dumps(answer.to_dict(), indent=2))
    elif out.parsable:
        out.emit(["JobID", "Reason"], [[answer.job.id, answer.reason]], "why")
    else:
        click.echo("\n".join(answer.lines()))


@job.command("cancel")
@click.argument("ids", nargs=-1, required=True, shell_complete=words_completer("job", {}))
@dry_run_option
@click.pass_obj
def cancel(app, ids, dry_run) -> None:
    """Cancel pending or running jobs (like scancel); running ones end now (--at).

    \b
    Example:
      fscli job cancel 12 13
    """
    job_ids = [_job_id(text) for item in ids for text in split_list(item)]
    with app.changes(dry_run) as tx:
        lines = tx.cancel_jobs(job_ids)
    report(app, lines, dry_run)


MODIFY_KEYS = key_table(
    {"id": ("jobid", "jobs"), "priority": ("prio",), "nice": (), "sitefactor": ("site",)}, None
)


def _admin_priority(text: str) -> int | None:
    """``priority=N`` (0 holds the job), ``-1`` or ``clear`` gives it back to the plugin."""
    from fscli.engine.priority import check_admin_priority

    if text.strip().lower() in ("-1", "clear"):
        return None
    return check_admin_priority(whole_number("priority", text, None, None))


@job.command("modify", **SETTINGS)
@click.argument("words", nargs=-1, shell_complete=words_completer("job", MODIFY_KEYS))
@dry_run_option
@click.pass_obj
def modify(app, words, dry_run) -> None:
    """Change pending or running jobs, like 'scontrol update job'.

    \b
    JOBID[,JOBID...] [set] priority=N|-1 nice=N sitefactor=N
    priority=N fixes the job's priority (sprio shows N and every factor 0), priority=0
    holds it (sprio leaves it out), priority=-1 (or clear) gives it back to the
    multifactor plugin. Every change is recorded (fscli history).

    \b
    Example:
      fscli job modify 12 priority=999
      fscli job modify 12 set priority=-1
    """
    from fscli.engine.priority import check_nice, check_site_factor
    from fscli.errors import UsageProblem

    parsed = parse_words(words, MODIFY_KEYS, "job modify", modify=True)
    texts = parsed.names + ([given] if (given := parsed.get("id")) else [])
    job_ids = [_job_id(t) for text in texts for t in split_list(text)]
    if not job_ids:
        raise UsageProblem("name the job(s): fscli job modify JOBID priority=N")
    changes: dict[str, int | None] = {}
    if parsed.values.get("priority"):
        changes["admin_priority"] = _admin_priority(parsed.values["priority"].value)
    if parsed.values.get("nice"):
        changes["nice"] = check_nice(whole_number("nice", parsed.values["nice"].value, None, None))
    if parsed.values.get("sitefactor"):
        changes["site_factor"] = check_site_factor(
            whole_number("sitefactor", parsed.values["sitefactor"].value, None, None)
        )
    if not changes:
        raise UsageProblem("nothing to change: give priority=, nice= or sitefactor=")
    with app.changes(dry_run) as tx:
        lines = tx.modify_jobs(job_ids, **changes)
    report(app, lines, dry_run)


@job.command("import")
@click.argument("file", type=click.File("r"))
@click.option("--replace", is_flag=True, help="Overwrite jobs whose id is already in the store.")
@dry_run_option
@click.pass_obj
def import_(app, file, replace, dry_run) -> None:
    """Read pending and running jobs from squeue output ('-' reads stdin).

    \b
    The accepted format, one job per line ('|'-separated, times in local time):
      squeue -h -O 'JobID:0|,UserName:0|,Account:0|,Partition:0|,QOS:0|,State:0|,SubmitTime:0|,StartTime:0|,TimeLimit:0|,NumNodes:0|,NumCPUs:0|,MinMemory:0|,tres-per-node:0|,Nice:0|,tres-alloc:0' > jobs.txt
    i.e. job id, user, account, partition(s), QOS, state, submit time, start time, time
    limit, nodes, CPUs, MinMemory, TRES per node (gres/gpu:2), nice, TRES. The node
    count is the TRES's node= (a pending job's minimum, which its job-size priority
    uses; NumNodes is squeue's guess: 2 for a pending -n1 -c2), the job's memory its
    mem= (MinMemory is per CPU for --mem-per-cpu, per node for --mem: squeue prints
    both alike). Lines without the TRES (the former
    -o '%i|%u|%a|%P|%q|%T|%V|%S|%l|%D|%C|%m|%b|%y') are read with NumNodes, and
    MinMemory as per node.
    A header line is skipped; finished jobs are skipped. Every job is checked like 'job
    submit'.

    \b
    Example:
      fscli job import jobs.txt
    """
    from fscli.cli.progress import progress
    from fscli.errors import InvalidValue
    from fscli.heap import bulk
    from fscli.io.squeue_import import parse_squeue

    try:
        text = file.read()
    except UnicodeDecodeError as exc:
        raise InvalidValue(f"cannot read {file.name}: {exc}") from None
    with bulk():  # a dump's 100,000 jobs: the collector would rescan them again and again
        jobs = parse_squeue(text)
        with progress(app, "importing jobs") as step:
            lines = app.store.import_jobs(
                jobs, replace, app.cluster_name, at=app.now, dry_run=dry_run, progress=step
            )
    report(app, lines, dry_run)
