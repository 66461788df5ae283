CREATE TABLE IF NOT EXISTS runs(id TEXT PRIMARY KEY, harness_hash TEXT, task_hash TEXT, task_id TEXT, split TEXT, model TEXT,
  repeat INTEGER NOT NULL DEFAULT 0, budget INTEGER NOT NULL DEFAULT 0, memory INTEGER NOT NULL DEFAULT 0, score REAL, passed INTEGER, total INTEGER, tokens_in INTEGER, tokens_out INTEGER,
  wall_ms INTEGER, exit_code INTEGER, trace_path TEXT, outcome TEXT NOT NULL DEFAULT '', error TEXT NOT NULL DEFAULT '', created_at TEXT);
CREATE TABLE IF NOT EXISTS evals(id INTEGER PRIMARY KEY, harness_hash TEXT, split TEXT, model TEXT, score REAL, n_tasks INTEGER, cached INTEGER, created_at TEXT);
CREATE TABLE IF NOT EXISTS generations(gen INTEGER PRIMARY KEY, parent_gen INTEGER, harness_hash TEXT, diff_hash TEXT, component TEXT,
  hypothesis TEXT, trace_ids TEXT, decision TEXT, reason TEXT, train_pre REAL, train_post REAL, holdout_pre REAL, holdout_post REAL,
  tokens INTEGER, created_at TEXT, goal TEXT NOT NULL DEFAULT '', train_fixed INTEGER, train_broken INTEGER, train_p REAL,
  holdout_fixed INTEGER, holdout_broken INTEGER, holdout_p REAL);
CREATE TABLE IF NOT EXISTS head(id INTEGER PRIMARY KEY CHECK (id = 1), gen INTEGER);
CREATE TRIGGER IF NOT EXISTS head_moves AFTER INSERT ON generations WHEN NEW.decision IN ('baseline', 'accept', 'rollback')
  BEGIN INSERT OR REPLACE INTO head(id, gen) VALUES(1, NEW.gen); END;
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
-- upgrades
-- A ledger made before a column existed gets it. Each statement runs on
-- its own, and "duplicate column" means the column is already there.
ALTER TABLE runs ADD COLUMN repeat INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN outcome TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN budget INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN memory INTEGER NOT NULL DEFAULT 0;
ALTER TABLE generations ADD COLUMN goal TEXT NOT NULL DEFAULT '';
ALTER TABLE generations ADD COLUMN train_fixed INTEGER;
ALTER TABLE generations ADD COLUMN train_broken INTEGER;
ALTER TABLE generations ADD COLUMN train_p REAL;
ALTER TABLE generations ADD COLUMN holdout_fixed INTEGER;
ALTER TABLE generations ADD COLUMN holdout_broken INTEGER;
ALTER TABLE generations ADD COLUMN holdout_p REAL;
DROP INDEX IF EXISTS runs_key;
CREATE INDEX IF NOT EXISTS runs_cache ON runs(harness_hash, task_hash, model, repeat, budget, memory);
-- Groups and ratchet verify: a run's task group, and the runs a generation
-- was decided on, as JSON {"train pre": [run ids], ...}.
ALTER TABLE runs ADD COLUMN group_id TEXT NOT NULL DEFAULT '';
ALTER TABLE generations ADD COLUMN run_ids TEXT NOT NULL DEFAULT '';
-- The cost of a decision (docs/ARCHITECTURE.md, "The cost of a decision"):
-- the reply cache, and what each run and generation spent. replies.key hashes model, options, task hash, repeat
-- and the forwarded request, and occurrence counts that request within a run.
-- exchanges is the anchor's side record of every request of a run.
CREATE TABLE IF NOT EXISTS replies(key TEXT, occurrence INTEGER, content_type TEXT, body BLOB,
  tokens_in INTEGER, tokens_out INTEGER, run_id TEXT, created_at TEXT, PRIMARY KEY(key, occurrence));
CREATE TABLE IF NOT EXISTS exchanges(run_id TEXT, seq INTEGER, key TEXT, occurrence INTEGER, cached INTEGER,
  PRIMARY KEY(run_id, seq));
ALTER TABLE runs ADD COLUMN requests INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN cached_replies INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN cached_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE generations ADD COLUMN runs INTEGER NOT NULL DEFAULT 0;
ALTER TABLE generations ADD COLUMN runs_cached INTEGER NOT NULL DEFAULT 0;
ALTER TABLE generations ADD COLUMN requests INTEGER NOT NULL DEFAULT 0;
ALTER TABLE generations ADD COLUMN upstream_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE generations ADD COLUMN stopped TEXT NOT NULL DEFAULT '';
ALTER TABLE generations ADD COLUMN screen_seed INTEGER;
-- Runs know their judge, and times sort as they happened (#21): a run is
-- served from the cache only to the anchor build and Go toolchain that
-- scored it, and a timestamp from before fixed widths is padded to nine
-- fractional digits, as now() writes them.
ALTER TABLE runs ADD COLUMN judge TEXT NOT NULL DEFAULT '';
UPDATE runs SET created_at = substr(created_at, 1, 19) || '.' || substr(rtrim(substr(created_at, 21), 'Z') || '000000000', 1, 9) || 'Z'
  WHERE created_at LIKE '____-__-__T__:__:__%Z' AND length(created_at) != 30;
UPDATE evals SET created_at = substr(created_at, 1, 19) || '.' || substr(rtrim(substr(created_at, 21), 'Z') || '000000000', 1, 9) || 'Z'
  WHERE created_at LIKE '____-__-__T__:__:__%Z' AND length(created_at) != 30;
UPDATE generations SET created_at = substr(created_at, 1, 19) || '.' || substr(rtrim(substr(created_at, 21), 'Z') || '000000000', 1, 9) || 'Z'
  WHERE created_at LIKE '____-__-__T__:__:__%Z' AND length(created_at) != 30;
CREATE INDEX IF NOT EXISTS exchanges_key ON exchanges(key, occurrence);
-- The gate's second look (docs/ARCHITECTURE.md, "The gate"): a ledger
-- initialized before it keeps its single look.
INSERT OR IGNORE INTO meta(key, value) SELECT 'looks', '1' WHERE EXISTS (SELECT 1 FROM meta WHERE key = 'model');
