"""Reading ``scontrol show ...`` text: records by key, whatever the version adds or renames."""

from __future__ import annotations

from fscli.io.scontrol import partition_values, priority_settings, records, show_config, squeue_line

JOB_22_05 = """JobId=7 JobName=wrap
   UserId=erin(1005) GroupId=users(100) MCS_label=N/A
   Priority=5135 Nice=0 Account=shz QOS=normal
   JobState=PENDING Reason=Nodes required for job are DOWN Dependency=(null)
   SubmitTime=2026-11-28T10:21:32+0000 EligibleTime=2026-11-28T10:21:32+0000
   StartTime=Unknown EndTime=Unknown Deadline=N/A
   TimeLimit=UNLIMITED TimeMin=N/A
   Partition=batch AllocNode:Sid=localhost:3889
   NumNodes=1-1 NumCPUs=32 NumTasks=32 CPUs/Task=1 ReqB:S:C:T=0:0:*:*
   TRES=cpu=32,mem=3200M,node=1,billing=32
   MinCPUsNode=1 MinMemoryCPU=100M MinTmpDiskNode=0

"""

JOB_24_11 = """JobId=3 JobName=blocker
   UserId=user4(1004) GroupId=users(100) MCS_label=N/A
   Priority=9100 Nice=0 Account=py QOS=normal
   JobState=RUNNING Reason=None Dependency=(null)
   RunTime=00:01:21 TimeLimit=365-00:00:00 TimeMin=N/A
   SubmitTime=2026-11-28T06:47:43 EligibleTime=2026-11-28T06:47:43
   StartTime=2026-11-28T06:47:43 EndTime=2027-11-28T06:47:43 Deadline=N/A
   Partition=low AllocNode:Sid=0.0.0.0:18239
   NumNodes=1 NumCPUs=64 NumTasks=1 CPUs/Task=64 ReqB:S:C:T=0:0:*:*
   ReqTRES=cpu=64,mem=62.50G,node=1,billing=64
   AllocTRES=cpu=64,mem=62.50G,node=1,billing=64
   MinCPUsNode=64 MinMemoryNode=0 MinTmpDiskNode=0
   TresPerTask=cpu=64
"""


def test_values_run_to_the_next_key_and_keep_their_equals_signs():
    (job,) = records(JOB_22_05)
    assert job["Reason"] == "Nodes required for job are DOWN"
    assert job["TRES"] == "cpu=32,mem=3200M,node=1,billing=32"
    assert job["AllocNode:Sid"] == "localhost:3889"
    assert job["CPUs/Task"] == "1"


def test_a_job_becomes_the_squeue_line_job_import_reads():
    assert [squeue_line(r) for r in records(JOB_22_05 + JOB_24_11)] == [
        "7|erin|shz|batch|normal|PENDING|2026-11-28T10:21:32+0000|Unknown|UNLIMITED|1|32|100M"
        "|N/A|0|cpu=32,mem=3200M,node=1,billing=32",
        "3|user4|py|low|normal|RUNNING|2026-11-28T06:47:43|2026-11-28T06:47:43|365-00:00:00"
        "|1|64|0|N/A|0|cpu=64,mem=62.50G,node=1,billing=64",
    ]


def test_show_config_keys_checked_as_slurm_conf_s():
    text = (
        "Configuration data as of 2026-11-28T10:18:30\n"
        "BOOT_TIME               = 2026-11-28T10:17:53\n"
        "PriorityCalcPeriod      = 00:05:00\n"
        "PriorityDecayHalfLife   = 7-00:00:00\n"
        "PriorityFlags           = \n"
        "PriorityWeightTRES      = (null)\n"
        "DefMemPerNode           = UNLIMITED\n"
        "PriorityWeightAge       = lots\n"
    )
    values = show_config(text)
    assert values["BOOT_TIME"] == "2026-11-28T10:17:53"
    settings = priority_settings(values)
    assert settings.used == {
        "PriorityCalcPeriod": "5",
        "PriorityDecayHalfLife": "10080",
        "PriorityFlags": "",
    }
    assert [key for key, _value, _why in settings.refused] == ["PriorityWeightAge"]


def test_partition_values_leave_unlimited_unset():
    (part,) = records(
        "PartitionName=gpu\n   AllocNodes=ALL Default=NO QoS=part_qos\n"
        "   MaxNodes=UNLIMITED MaxTime=2-00:00:00 MinNodes=1\n"
        "   PriorityJobFactor=10 PriorityTier=2\n   TotalCPUs=128 TotalNodes=2\n"
        "   DefMemPerCPU=2000 MaxMemPerNode=UNLIMITED\n"
        "   TRES=cpu=128,mem=250G,node=2,billing=160\n"
        "   TRESBillingWeights=CPU=1.0,Mem=0.25G\n"
    )
    assert partition_values(part) == {
        "nodes": 2,
        "cpus": 128,
        "priority_job_factor": 10,
        "priority_tier": 2,
        "min_nodes": 1,
        "tres": "cpu=128,mem=256000,node=2,billing=160",
        "max_time": 2880,
        "qos": "part_qos",
        "billing_weights": "CPU=1.0,Mem=0.25G",
        "def_mem_per_cpu": 2000,
    }
