-- Generated from gamedb/store/schema.py by `python -m gamedb.store.sqlite_schema`: do not edit.
-- The SQLite DDL of the SQLAlchemy tables, as SQLAlchemy compiles it (see gamedb/store/sqlite_schema.py):
-- each table in dependency order, then its indexes by name.

CREATE TABLE game (
    id INTEGER NOT NULL,
    name TEXT NOT NULL,
    family TEXT NOT NULL,
    parameters JSON NOT NULL,
    rules_version INTEGER NOT NULL,
    impartial BOOLEAN NOT NULL,
    status TEXT NOT NULL,
    start_code BIGINT NOT NULL,
    start_position TEXT NOT NULL,
    positions BIGINT,
    moves BIGINT,
    created_at TEXT NOT NULL,
    solved_at TEXT,
    enumerate_seconds FLOAT,
    solve_seconds FLOAT,
    gamedb_version TEXT NOT NULL,
    info JSON,
    progress JSON,
    strategy TEXT,
    CONSTRAINT pk_game PRIMARY KEY (id),
    CONSTRAINT uq_game_name UNIQUE (name)
);

CREATE TABLE solve_counter (
    game_id INTEGER NOT NULL,
    code BIGINT NOT NULL,
    pending INTEGER NOT NULL,
    CONSTRAINT pk_solve_counter PRIMARY KEY (game_id, code)
)
 WITHOUT ROWID;

CREATE TABLE solve_queue (
    game_id INTEGER NOT NULL,
    code BIGINT NOT NULL,
    depth INTEGER NOT NULL,
    CONSTRAINT pk_solve_queue PRIMARY KEY (game_id, code)
)
 WITHOUT ROWID;

CREATE INDEX ix_solve_queue_depth ON solve_queue (game_id, depth);

CREATE TABLE heap_rule (
    game_id INTEGER NOT NULL,
    parts SMALLINT NOT NULL,
    take INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    unequal SMALLINT NOT NULL,
    CONSTRAINT pk_heap_rule PRIMARY KEY (game_id, parts, take),
    CONSTRAINT fk_heap_rule_game_id_game FOREIGN KEY(game_id) REFERENCES game (id) ON DELETE CASCADE
)
 WITHOUT ROWID;

CREATE TABLE move (
    game_id INTEGER NOT NULL,
    parent BIGINT NOT NULL,
    ord INTEGER NOT NULL,
    child BIGINT NOT NULL,
    label TEXT NOT NULL,
    CONSTRAINT pk_move PRIMARY KEY (game_id, parent, ord),
    CONSTRAINT fk_move_game_id_game FOREIGN KEY(game_id) REFERENCES game (id) ON DELETE CASCADE
)
 WITHOUT ROWID;

CREATE INDEX ix_move_child ON move (game_id, child);

CREATE TABLE player (
    game_id INTEGER NOT NULL,
    idx SMALLINT NOT NULL,
    name TEXT NOT NULL,
    CONSTRAINT pk_player PRIMARY KEY (game_id, idx),
    CONSTRAINT fk_player_game_id_game FOREIGN KEY(game_id) REFERENCES game (id) ON DELETE CASCADE
);

CREATE TABLE position (
    game_id INTEGER NOT NULL,
    code BIGINT NOT NULL,
    text TEXT NOT NULL,
    player SMALLINT NOT NULL,
    result TEXT,
    remoteness INTEGER,
    degree INTEGER NOT NULL,
    best_move TEXT,
    grundy INTEGER,
    CONSTRAINT pk_position PRIMARY KEY (game_id, code),
    CONSTRAINT fk_position_game_id_game FOREIGN KEY(game_id) REFERENCES game (id) ON DELETE CASCADE
)
 WITHOUT ROWID;

CREATE INDEX ix_position_remoteness ON position (game_id, remoteness) WHERE remoteness IS NOT NULL;

CREATE UNIQUE INDEX ix_position_text ON position (game_id, text);

CREATE TABLE token_board (
    game_id INTEGER NOT NULL,
    nodes INTEGER NOT NULL,
    CONSTRAINT pk_token_board PRIMARY KEY (game_id),
    CONSTRAINT fk_token_board_game_id_game FOREIGN KEY(game_id) REFERENCES game (id) ON DELETE CASCADE
);

CREATE TABLE token_move (
    game_id INTEGER NOT NULL,
    player SMALLINT NOT NULL,
    node INTEGER NOT NULL,
    ord INTEGER NOT NULL,
    target INTEGER NOT NULL,
    label TEXT NOT NULL,
    CONSTRAINT pk_token_move PRIMARY KEY (game_id, player, node, ord),
    CONSTRAINT fk_token_move_game_id_game FOREIGN KEY(game_id) REFERENCES game (id) ON DELETE CASCADE
)
 WITHOUT ROWID;

CREATE INDEX ix_token_move_target ON token_move (game_id, player, target);
