"""LSF queue-level fairshare: parameters, share resolution, dynamic user priority.

LSF ranks the users (or groups) of a fairshare queue by a *dynamic priority*::

    priority = shares / ( cpu_time * CPU_TIME_FACTOR
                        + (historical_run_time + run_time) * RUN_TIME_FACTOR
                        + (committed_run_time - run_time) * COMMITTED_RUN_TIME_FACTOR
                        + (1 + job_slots) * RUN_JOB_FACTOR
                        + fairshare_adjustment * FAIRSHARE_ADJUSTMENT_FACTOR )

with times in hours. Usage is counted per queue from plain :class:`~fscli.engine.model.Job`
records (``queue``, ``slots``, ``state``, ``start``, ``end``, ``cputime`` seconds,
``time_limit`` minutes) at an explicit ``now`` (epoch seconds):

* running job: its CPU time counts in full; its run time is ``now - start`` (decayed only with
  RUN_TIME_DECAY=Y, each second from the moment it was used); its committed run time is its run
  limit (or its run time when it has none, so the committed term adds nothing); its slots are
  STARTED;
* pending job with a ``start`` (a planned start: the scheduler holds slots for it): its slots
  are RESERVED. Other pending jobs cost nothing;
* finished job (any other state with an ``end``): CPU time, and with ENABLE_HIST_RUN_TIME=Y its
  run time, decay from the end by ``t * 0.1 ** (hours_since_end / HIST_HOURS)``.

The package is pure computation: parameters (:mod:`.params`), usage and the dynamic
priority (:mod:`.usage`), share holders (:mod:`.shares`) and the ``USER_SHARES[...]``
text (:mod:`.share_text`), ``bqueues -l``'s blocks (:mod:`.share_info`), queue
summaries (:mod:`.queues`) and dispatch (:mod:`.dispatch`); the ``bqueues`` text is
:mod:`fscli.render.bqueues`.
"""
