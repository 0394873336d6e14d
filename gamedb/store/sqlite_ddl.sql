-- Generated from gamedb/store/schema.py and migrations/ by `python -m gamedb.store.sqlite_schema`: do not edit.
-- Each table in dependency order, then its indexes by name; then the views and alembic_version as the migrations make them.

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

CREATE TABLE move_label (
    game_id INTEGER NOT NULL,
    id INTEGER NOT NULL,
    name TEXT NOT NULL,
    CONSTRAINT pk_move_label PRIMARY KEY (game_id, id),
    CONSTRAINT fk_move_label_game_id_game FOREIGN KEY(game_id) REFERENCES game (id) ON DELETE CASCADE
)
 WITHOUT ROWID;

CREATE UNIQUE INDEX ix_move_label_name ON move_label (game_id, name);

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
    text TEXT,
    player SMALLINT NOT NULL,
    result SMALLINT,
    remoteness INTEGER,
    degree INTEGER NOT NULL,
    best_move INTEGER,
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

CREATE VIEW heap_moves AS
SELECT g.name AS game, p.code AS heap, p.text AS position, r.take AS take,
       CAST(NULL AS INTEGER) AS part1, CAST(NULL AS INTEGER) AS part2, 0 AS grundy
FROM heap_rule r
JOIN game g ON g.id = r.game_id
JOIN position p ON p.game_id = r.game_id AND p.code = r.take
WHERE r.parts = 0
UNION ALL
SELECT g.name, p.code, p.text, r.take, c.code, CAST(NULL AS INTEGER), c.grundy
FROM heap_rule r
JOIN game g ON g.id = r.game_id
JOIN position p ON p.game_id = r.game_id AND p.code > r.take
JOIN position c ON c.game_id = r.game_id AND c.code = p.code - r.take
WHERE r.parts = 1 AND r.take > 0
UNION ALL
SELECT g.name, p.code, p.text, r.take, a.code, b.code, (a.grundy | b.grundy) - (a.grundy & b.grundy)
FROM heap_rule r
JOIN game g ON g.id = r.game_id
JOIN position p ON p.game_id = r.game_id
JOIN position a ON a.game_id = r.game_id AND a.code >= 1 AND a.code <= (p.code - r.take - r.unequal) / 2
JOIN position b ON b.game_id = r.game_id AND b.code = p.code - r.take - a.code
WHERE r.parts = 2;

CREATE VIEW moves AS
SELECT g.name AS game,
       pp.text AS position,
       m.ord AS ord,
       m.label AS move,
       pc.text AS child,
       CASE pc.result WHEN 1 THEN 'win' WHEN 2 THEN 'lose' WHEN 3 THEN 'tie' WHEN 4 THEN 'draw' END AS child_result,
       pc.remoteness AS child_remoteness
FROM move m
JOIN game g ON g.id = m.game_id
JOIN position pp ON pp.game_id = m.game_id AND pp.code = m.parent
JOIN position pc ON pc.game_id = m.game_id AND pc.code = m.child
UNION ALL
SELECT g.name, pp.text, t.ord, t.label, pc.text, CASE pc.result WHEN 1 THEN 'win' WHEN 2 THEN 'lose' WHEN 3 THEN 'tie' WHEN 4 THEN 'draw' END, pc.remoteness
FROM position pp
JOIN game g ON g.id = pp.game_id
JOIN token_board b ON b.game_id = pp.game_id
JOIN token_move t ON t.game_id = pp.game_id AND t.player = pp.player
     AND t.node = CASE pp.player WHEN 0 THEN pp.code / 2 / b.nodes ELSE pp.code / 2 - pp.code / 2 / b.nodes * b.nodes END
JOIN position pc ON pc.game_id = pp.game_id
     AND pc.code = CASE pp.player WHEN 0 THEN (t.target * b.nodes + pp.code / 2 - pp.code / 2 / b.nodes * b.nodes) * 2 + 1
                                  ELSE (pp.code / 2 / b.nodes * b.nodes + t.target) * 2 END
WHERE pp.degree > 0;

CREATE VIEW positions AS
SELECT g.name AS game,
       p.text AS position,
       CASE WHEN g.impartial THEN 'next' ELSE pl.name END AS player,
       CASE p.result WHEN 1 THEN 'win' WHEN 2 THEN 'lose' WHEN 3 THEN 'tie' WHEN 4 THEN 'draw' END AS result,
       CASE p.result WHEN 1 THEN CASE WHEN g.impartial THEN 'next' ELSE pl.name END
                     WHEN 2 THEN CASE WHEN g.impartial THEN 'previous' ELSE op.name END END AS winner,
       p.remoteness AS remoteness,
       p.degree AS degree,
       (SELECT l.name FROM move_label l WHERE l.game_id = p.game_id AND l.id = p.best_move) AS best_move,
       p.grundy AS grundy,
       p.code AS code
FROM position p
JOIN game g ON g.id = p.game_id
JOIN player pl ON pl.game_id = p.game_id AND pl.idx = p.player
JOIN player op ON op.game_id = p.game_id AND op.idx = 1 - p.player;

CREATE TABLE alembic_version (
    version_num VARCHAR(32) NOT NULL,
    CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
