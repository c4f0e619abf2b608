"""Seeded random sacctmgr command sequences over the vocabulary ``fscli sacctmgr`` claims.

A sequence is a list of command lines as an admin types them (``sacctmgr -i add user ...``).
The generator keeps a rough model of what exists (accounts with their parents, users, QOS,
coordinators) so that most calls name real objects, and mixes in what admins get wrong:
unknown names, typos of keywords, bad values, duplicates. The same seed gives the same
sequence on every machine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

ACCOUNTS = ["phys", "chem", "bio", "astro", "nucl", "cosmo", "ml", "hep"]
USERS = ["alice", "bob", "carl", "dana", "erin", "frank"]
QOS = ["low", "high", "debug", "long"]
PARTITIONS = ["batch", "low", "high", "nosuchpart"]
QOS_FLAGS = [
    "DenyOnLimit",
    "NoDecay",
    "OverPartQOS",
    "PartitionMinNodes",
    "RequiresReservation",
    "NoReserve",
]
ASSOC_FORMATS = [
    "Account,User,Partition,Share",
    "Cluster,Account,User,Share,GrpTRES,MaxJobs,QOS,DefaultQOS",
    "Account%-20,User,Share,MaxWall",
    "account,user,fairshare,maxsubmit,grpjobs,parentname",
    "Acc,Us,Part,Share,MaxTRES,GrpTRESMins,MaxTRESPerNode",
    "Account%10,User%8,QOS%30,LFT",
    "Account,User,Partition,LFT,RGT",
]
USER_FORMATS = ["User,DefaultAccount,Admin", "user%12,defaulta,adminlevel,account,partition,share"]
ACCOUNT_FORMATS = [
    "Account,Description,Organization",
    "account%15,descr,org,user,share",
    "Account,ParentName,User,Share,MaxJobs",
]
QOS_FORMATS = [
    "Name,Priority,Flags,UsageFactor,Preempt,PreemptMode,GraceTime",
    "name,priority,maxwall,grptres,maxtrespu,maxjobspu,maxsubmitpu",
    "Name%10,Prio,UsageThres,MinTRES,MaxTRESPA",
]


@dataclass
class Model:
    """What the generator believes exists: close enough to pick plausible names."""

    parents: dict[str, str] = field(default_factory=dict)  # account -> parent account
    users: dict[str, set[str]] = field(default_factory=dict)  # user -> accounts
    qos: set[str] = field(default_factory=lambda: {"normal"})

    def accounts(self) -> list[str]:
        return sorted(self.parents)


class Generator:
    """Call :meth:`sequence` for a list of calls."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.model = Model()

    # -- small pieces ----------------------------------------------------------------------
    def pick(self, seq, default=None):
        seq = list(seq)
        return self.rng.choice(seq) if seq else default

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def account(self, existing: float = 0.85) -> str:
        have = self.model.accounts()
        if have and self.chance(existing):
            return self.pick(have)
        return self.pick(ACCOUNTS)

    def user(self, existing: float = 0.85) -> str:
        if self.model.users and self.chance(existing):
            return self.pick(sorted(self.model.users))
        return self.pick(USERS)

    def qos_name(self, existing: float = 0.85) -> str:
        if self.chance(existing):
            return self.pick(sorted(self.model.qos))
        return self.pick(QOS)

    def number(self) -> str:
        return self.pick(["1", "5", "10", "40", "100", "-1", "0", "abc", "2000000000"])

    def prefix(self) -> str:
        """sacctmgr's options: mostly -i; sometimes parsable, no header, readonly."""
        opts = ["-i"]
        if self.chance(0.05):
            opts = []
        return " ".join(opts)

    def immediate(self, line: str) -> str:
        """A writing call: -i, or the commit question answered."""
        if self.chance(0.08):
            return f"sacctmgr {line} <<< {self.pick(['y', 'n'])}"
        return f"sacctmgr -i {line}"

    def limit_words(self, entity: str) -> list[str]:
        words = []
        pool = [
            lambda: f"fairshare={self.pick(['1', '10', '40', 'parent', '-1', 'x'])}",
            lambda: f"maxjobs={self.number()}",
            lambda: f"maxsubmitjobs={self.number()}",
            lambda: f"grpjobs={self.number()}",
            lambda: f"GrpTRES=cpu={self.pick(['64', '128', '-1'])}",
            lambda: f"MaxTRES={self.pick(['cpu=4', 'cpu=8,mem=16G', 'node=2', 'gpu=1', 'cpu=x'])}",
            lambda: f"maxwall={self.pick(['1:00:00', '2-00:00:00', '60', '-1', 'bad'])}",
            lambda: f"GrpTRESMins=cpu={self.pick(['1000', '-1'])}",
            lambda: f"priority={self.pick(['5', '100', '-1'])}",
            lambda: f"qos={self.pick(sorted(self.model.qos))}",
            lambda: f"qos+={self.qos_name()}",
            lambda: f"defaultqos={self.qos_name()}",
        ]
        if entity == "account":
            pool.append(lambda: f"description={self.pick(['lab', 'new', 'Physics'])}")
            pool.append(lambda: f"organization={self.pick(['sci', 'Eng'])}")
        if entity == "user":
            pool.append(lambda: f"adminlevel={self.pick(['None', 'Operator', 'Admin', 'bogus'])}")
        for _ in range(self.pick([0, 1, 1, 2, 3])):
            words.append(self.pick(pool)())
        if self.chance(0.05):
            words.append(self.pick(["fairshar=5", "maxjob=3", "nosuchkey=1", "grptres=bad"]))
        return words

    # -- calls -----------------------------------------------------------------------------
    def add_account(self) -> str:
        names = [self.pick(ACCOUNTS)]
        if self.chance(0.2):
            names.append(self.pick(ACCOUNTS))
        words = [",".join(names)]
        parent = None
        if self.chance(0.7) and self.model.parents:
            parent = self.account(0.95)
            words.append(f"parent={parent}")
        words += self.limit_words("account")
        for name in names:
            if name not in self.model.parents and name != parent:
                self.model.parents[name] = parent or "root"
        return self.immediate("add account " + " ".join(words))

    def add_user(self) -> str:
        names = [self.pick(USERS)]
        if self.chance(0.2):
            names.append(self.pick(USERS))
        accounts = [self.account(0.95)]
        if self.chance(0.25):
            accounts.append(self.account(0.95))
        words = [",".join(names), f"account={','.join(accounts)}"]
        if self.chance(0.2):
            words.append(f"defaultaccount={self.account(0.9)}")
        if self.chance(0.2):
            words.append(f"partition={','.join(self.rng.sample(PARTITIONS, self.pick([1, 2])))}")
        words += self.limit_words("user")
        for name in names:
            self.model.users.setdefault(name, set()).update(
                a for a in accounts if a in self.model.parents
            )
        if self.chance(0.2):
            words = [f"name={words[0]}", *words[1:]]
        return self.immediate("add user " + " ".join(words))

    def add_qos(self) -> str:
        name = self.pick(QOS)
        words = [name]
        for _ in range(self.pick([0, 1, 2])):
            words.append(
                self.pick(
                    [
                        f"priority={self.pick(['10', '100', '-1', 'x'])}",
                        f"flags={','.join(self.rng.sample(QOS_FLAGS, self.pick([1, 2, 3])))}",
                        f"usagefactor={self.pick(['0.5', '2', '1'])}",
                        f"maxwall={self.pick(['1:00:00', '2-0'])}",
                        f"MaxTRESPerUser=cpu={self.pick(['8', '16'])}",
                        f"maxjobsperuser={self.pick(['2', '5'])}",
                        f"preempt={self.qos_name()}",
                        f"preemptmode={self.pick(['cancel', 'requeue', 'off', 'bogus'])}",
                        f"gracetime={self.pick(['60', '00:05:00', 'x'])}",
                        f"usagethreshold={self.pick(['0.1', '0.5'])}",
                        f"description={self.pick(['fast', 'slow'])}",
                    ]
                )
            )
        self.model.qos.add(name)
        return self.immediate("add qos " + " ".join(words))

    def add_coordinator(self) -> str:
        return self.immediate(f"add coordinator account={self.account()} names={self.user()}")

    def modify_account(self) -> str:
        if self.chance(0.2):
            where = f"where parent={self.account()}"
        else:
            where = f"where name={self.account()}"
        sets = self.limit_words("account") or [f"fairshare={self.pick(['3', '50'])}"]
        if self.chance(0.15):
            sets = [f"parent={self.pick([*self.model.accounts(), 'root'])}"]
        if self.chance(0.1):
            where = where.replace("where ", "")
        return self.immediate(f"modify account {where} set {' '.join(sets)}")

    def modify_user(self) -> str:
        where = [f"name={self.user()}"]
        if self.chance(0.3):
            where.append(f"account={self.account()}")
        if self.chance(0.1):
            where.append(f"partition={self.pick(PARTITIONS)}")
        sets = self.limit_words("user") or [f"maxjobs={self.pick(['2', '7'])}"]
        if self.chance(0.25):
            sets.insert(0, f"defaultaccount={self.account()}")
        return self.immediate(f"modify user where {' '.join(where)} set {' '.join(sets)}")

    def modify_qos(self) -> str:
        sets = [
            self.pick(
                [
                    f"priority={self.pick(['20', '200'])}",
                    f"flags={','.join(self.rng.sample(QOS_FLAGS, self.pick([1, 2, 3])))}",
                    f"flags+={self.pick(QOS_FLAGS)}",
                    f"preempt={self.qos_name()}",
                    f"preempt+={self.qos_name()}",
                    f"preemptmode={self.pick(['cancel', 'requeue', 'suspend', 'bogus'])}",
                    f"gracetime={self.pick(['120', 'abc', '1:00'])}",
                    f"usagethreshold={self.pick(['0.2', 'x'])}",
                    f"usagefactor={self.pick(['0.25', '3'])}",
                    f"maxwall={self.pick(['4:00:00', '-1'])}",
                    f"grptres=cpu={self.pick(['100', '-1'])}",
                    f"flags-={self.pick(QOS_FLAGS)}",
                    f"preempt-={self.qos_name()}",
                ]
            )
            for _ in range(self.pick([1, 1, 2, 3]))
        ]
        return self.immediate(f"modify qos where name={self.qos_name()} set {' '.join(sets)}")

    def delete_account(self) -> str:
        name = self.account()
        if self.chance(0.15):
            return self.immediate(f"delete account where parent={name}")
        self.model.parents.pop(name, None)
        return self.immediate(f"delete account {name}")

    def delete_user(self) -> str:
        name = self.user()
        if self.chance(0.2):
            return self.immediate(f"delete user where account={self.account()}")
        if self.chance(0.3):
            account = self.account()
            self.model.users.get(name, set()).discard(account)
            return self.immediate(f"delete user where name={name} account={account}")
        self.model.users.pop(name, None)
        return self.immediate(f"delete user {name}")

    def delete_qos(self) -> str:
        name = self.qos_name()
        if name != "normal":
            self.model.qos.discard(name)
        return self.immediate(f"delete qos {name}")

    def delete_coordinator(self) -> str:
        return self.immediate(f"delete coordinator account={self.account()} names={self.user()}")

    def show(self) -> str:
        opts = self.pick(["", "-P", "-p", "-n", "-n -P", "-P"])
        kind = self.pick(
            ["assoc"] * 5 + ["user"] * 3 + ["account"] * 3 + ["qos"] * 2 + ["tres", "cluster"]
        )
        words: list[str] = []
        if kind == "assoc":
            words.append(self.pick(["assoc", "association", "ass"]))
            if self.chance(0.7):
                words.append(f"format={self.pick(ASSOC_FORMATS)}")
            if self.chance(0.3):
                words.append("tree")
            if self.chance(0.15):
                words.append("onlydefaults")
            if self.chance(0.3):
                words.append(
                    self.pick([f"user={self.user()}", f"account={self.account()}", "partition=low"])
                )
        elif kind == "user":
            words.append(self.pick(["user", "users"]))
            if self.chance(0.4):
                words.append("withassoc")
            if self.chance(0.2):
                words.append("withcoord")
            if self.chance(0.5):
                words.append(f"format={self.pick(USER_FORMATS)}")
            if self.chance(0.2):
                words.append(self.user())
        elif kind == "account":
            words.append(self.pick(["account", "acc"]))
            if self.chance(0.4):
                words.append("withassoc")
            if self.chance(0.2):
                words.append("withcoord")
            if self.chance(0.5):
                words.append(f"format={self.pick(ACCOUNT_FORMATS)}")
        elif kind == "qos":
            words.append("qos")
            if self.chance(0.8):
                words.append(f"format={self.pick(QOS_FORMATS)}")
        elif kind == "tres":
            words.append("tres")
        else:
            words += ["cluster", "format=Cluster,Share,QOS"]
        if self.chance(0.1):
            opts = (opts + " -s").strip()
        return f"sacctmgr {opts} show {' '.join(words)}".replace("  ", " ")

    def transactions(self) -> str:
        fmt = self.pick(
            ["Action,Where", "Action,Actor,Where", "Where,TimeStamp,Action", "ID,ActionRaw,Cluster"]
        )
        action = self.pick(["", ' Action="Add Users"', " Action=Add Accounts"])
        cond = self.pick(
            [
                "",
                "",
                " Start=10/29/26",
                " Start=now-1days End=now+1days",
                f" Users={self.user()}",
                f" Accounts={self.account()}",
                " Action=Add",
                " Ids=1,3",
            ]
        )
        return f"sacctmgr -P list transactions{action}{cond} format={fmt}"

    def mistake(self) -> str:
        return self.pick(
            [
                "sacctmgr -i add acount zz",
                "sacctmgr show assoc format=Acount",
                "sacctmgr -i modify user where name=nobody set maxjobs=3",
                "sacctmgr -i delete account nosuch",
                "sacctmgr -i add user zed",
                f"sacctmgr -i add user zed account={self.pick(['nosuch', self.account()])}",
                "sacctmgr -i add account root",
                "sacctmgr -r -i add account zz",
                "sacctmgr show nothing",
            ]
        )

    def cluster(self) -> str:
        """Clusters come and go: the live one stays (its root associations are what the
        other calls build on); a second one, ``c2``, is added, listed and deleted."""
        return self.pick(
            [
                "sacctmgr -i add cluster c2",
                "sacctmgr -i add cluster live",
                "sacctmgr -i delete cluster c2",
                "sacctmgr -P show cluster format=Cluster,Share,QOS,DefaultQOS",
                "sacctmgr -n show cluster format=cluster%12,qos",
                f"sacctmgr -P show assoc cluster={self.pick(['live', 'c2'])} format=Cluster,Account,User",
            ]
        )

    def synonym(self) -> str:
        """The other names of the verbs and entities, and the readonly option."""
        return self.pick(
            [
                f"sacctmgr -i create account {self.pick(ACCOUNTS)}",
                f"sacctmgr -i update user where name={self.user()} set maxjobs=3",
                f"sacctmgr -i remove user where name={self.user()} account={self.account()}",
                f"sacctmgr -P list users {self.user()}",
                f"sacctmgr -P list account {self.account()} format=Account,Description",
                f"sacctmgr -r -i modify account where name={self.account()} set maxjobs=2",
                f"sacctmgr -i add user {self.user()} account={self.account()} cluster=live",
                "sacctmgr -P show coordinator",
                "sacctmgr -P show user withcoord format=User,Coordinators",
            ]
        )

    def call(self) -> str:
        makers = [
            (self.add_account, 14),
            (self.add_user, 14),
            (self.add_qos, 4),
            (self.add_coordinator, 2),
            (self.modify_account, 7),
            (self.modify_user, 7),
            (self.modify_qos, 4),
            (self.delete_account, 3),
            (self.delete_user, 4),
            (self.delete_qos, 1),
            (self.delete_coordinator, 1),
            (self.show, 20),
            (self.transactions, 1),
            (self.mistake, 2),
            (self.cluster, 2),
            (self.synonym, 3),
        ]
        total = sum(w for _, w in makers)
        roll = self.rng.uniform(0, total)
        for maker, weight in makers:
            roll -= weight
            if roll <= 0:
                return maker()
        return makers[-1][0]()

    def sequence(self, length: int) -> list[str]:
        return [self.call() for _ in range(length)]


def sequence(seed: int, length: int = 25) -> list[str]:
    """The calls of one seeded sequence."""
    return Generator(seed).sequence(length)


def coverage(calls: list[str]) -> dict[str, set[str]]:
    """What ``calls`` exercise: their options, verbs, entities and keywords (``key=``)."""
    import shlex

    seen: dict[str, set[str]] = {"options": set(), "verbs": set(), "entities": set(), "keys": set()}
    for call in calls:
        words = shlex.split(call.partition(" <<< ")[0])[1:]
        options = [w for w in words if w.startswith("-")]
        rest = [w for w in words if not w.startswith("-")]
        seen["options"].update(options)
        if rest:
            seen["verbs"].add(rest[0].lower())
        if len(rest) > 1:
            seen["entities"].add(f"{rest[0].lower()} {rest[1].lower()}")
        for word in rest[2:]:
            key = word.split("=", 1)[0].rstrip("+-").lower() if "=" in word else word.lower()
            if "=" in word or word in ("tree", "withassoc", "withcoord", "onlydefaults"):
                seen["keys"].add(key)
    return seen
