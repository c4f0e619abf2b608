"""fscli: fair-share, job priority and limits for HPC administrators."""

__version__ = "0.1.0"
