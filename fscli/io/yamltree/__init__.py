"""The YAML tree format: a whole cluster as one readable file (schema: docs/yaml-tree.md).

Loading composes the YAML *node* tree with ``yaml.SafeLoader`` and walks it, instead
of loading plain Python objects, so that every error names its line and its place in
the document::

    tree.yaml:42: accounts.science.children.physics.fairshare: expected an integer or "parent"

Walking nodes also catches what ``yaml.safe_load`` hides: a key given twice in one
mapping. Scalars that are names, times and TRES strings are read as written (YAML
1.1 would turn ``10:00:00`` into 36000 and ``no`` into False); only counts and
factors are read as typed numbers.

The package: :mod:`.schema` (the keys each mapping allows, the tags), :mod:`.compose`
(text -> YAML nodes with their lines), :mod:`.read` (nodes -> a checked TreeSpec),
:mod:`.users` (a valid ``users:`` section straight from its lines, without nodes) and
:mod:`.write` (TreeSpec -> text).
"""

from fscli.io.yamltree.read import load
from fscli.io.yamltree.write import dump

__all__ = ["dump", "load"]
