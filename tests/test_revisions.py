"""The newest schema revision read from the migration files is Alembic's head."""

from alembic.script import ScriptDirectory

from gamedb.store.database import _migrations_dir, alembic_config, head_revision
from gamedb.store.revisions import head_from_files


def test_head_from_files_is_alembics_head():
    assert head_from_files(_migrations_dir()) == ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head_revision() == head_from_files(_migrations_dir())


def test_unusual_files_fall_back_to_alembic(tmp_path):
    versions = tmp_path / "versions"
    versions.mkdir()
    (versions / "0001_a.py").write_text('revision = "0001"\ndown_revision = None\n')
    (versions / "0002_b.py").write_text('revision: str = "0002"\ndown_revision: Union[str, None] = "0001"\n')
    assert head_from_files(tmp_path) == "0002"
    (versions / "0003_c.py").write_text('revision = "0003"\ndown_revision = "0001"\n')  # two heads
    assert head_from_files(tmp_path) is None
    (versions / "0003_c.py").write_text('revision = compute()\n')
    assert head_from_files(tmp_path) is None
    assert head_from_files(tmp_path / "missing") is None
