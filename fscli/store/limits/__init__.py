"""The limit checker's view of the store (:mod:`.state`): the associations, QOS,
partitions and job counts one check needs, read for that check only."""
