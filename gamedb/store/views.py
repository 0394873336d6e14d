"""The read-only views of a gamedb database, as the newest schema revision has them."""

POSITIONS = """CREATE VIEW positions AS
SELECT g.name AS game,
       p.text AS position,
       CASE WHEN g.impartial THEN 'next' ELSE pl.name END AS player,
       p.result AS result,
       CASE p.result WHEN 'win' THEN CASE WHEN g.impartial THEN 'next' ELSE pl.name END
                     WHEN 'lose' THEN CASE WHEN g.impartial THEN 'previous' ELSE op.name END END AS winner,
       p.remoteness AS remoteness,
       p.degree AS degree,
       p.best_move AS best_move,
       p.grundy AS grundy,
       p.code AS code
FROM position p
JOIN game g ON g.id = p.game_id
JOIN player pl ON pl.game_id = p.game_id AND pl.idx = p.player
JOIN player op ON op.game_id = p.game_id AND op.idx = 1 - p.player"""

MOVES = """CREATE VIEW moves AS
SELECT g.name AS game,
       pp.text AS position,
       m.ord AS ord,
       m.label AS move,
       pc.text AS child,
       pc.result AS child_result,
       pc.remoteness AS child_remoteness
FROM move m
JOIN game g ON g.id = m.game_id
JOIN position pp ON pp.game_id = m.game_id AND pp.code = m.parent
JOIN position pc ON pc.game_id = m.game_id AND pc.code = m.child
UNION ALL
SELECT g.name, pp.text, t.ord, t.label, pc.text, pc.result, pc.remoteness
FROM position pp
JOIN game g ON g.id = pp.game_id
JOIN token_board b ON b.game_id = pp.game_id
JOIN token_move t ON t.game_id = pp.game_id AND t.player = pp.player
     AND t.node = CASE pp.player WHEN 0 THEN pp.code / 2 / b.nodes ELSE pp.code / 2 - pp.code / 2 / b.nodes * b.nodes END
JOIN position pc ON pc.game_id = pp.game_id
     AND pc.code = CASE pp.player WHEN 0 THEN (t.target * b.nodes + pp.code / 2 - pp.code / 2 / b.nodes * b.nodes) * 2 + 1
                                  ELSE (pp.code / 2 / b.nodes * b.nodes + t.target) * 2 END
WHERE pp.degree > 0"""

HEAP_MOVES = """CREATE VIEW heap_moves AS
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
WHERE r.parts = 2"""

#: in creation order
VIEWS = (POSITIONS, MOVES, HEAP_MOVES)
