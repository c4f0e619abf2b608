"""Slurm's limits on plain data: their names and value kinds (:mod:`.definitions`), which
limits apply to a job and who set them (:mod:`.precedence`), what a job counts for
against them (:mod:`.counting`), the check of one request (:mod:`.check`), what a
``limits`` command names (:mod:`.target`) and what-if changes (:mod:`.whatif`)."""
