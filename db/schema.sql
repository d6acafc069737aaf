-- schema.sql -- the sessmax results store, schema version 5 (STORE_SCHEMA_VERSION in store.h).
--
-- Compiled into the binary (db/CMakeLists.txt) and run on a new, empty file inside the same
-- transaction that sets PRAGMA user_version and application_id. Older files are brought here by
-- the migrations in store_migrate.c, never by re-running this text.
--
-- Invariants:
--   - meta.application = 'sessmax' and PRAGMA application_id = 0x53534D58 ('SSMX') mark the file;
--     `sessmax db check` refuses a file that has neither.
--   - samples, traffic, health and events are append-only: never updated, never deleted.
--     Only runs, agents and sessions rows change after insertion.
--   - every row of a run's children carries run_id; readers always filter by it.
--   - times are wall-clock microseconds since the epoch (*_us); durations are microseconds too.
--     Times an agent reports are stored on the controller's clock (the agent's time less its
--     agents.clock_offset_us); runs stored before that kept samples, traffic, health and session
--     times on the agent's clock (the same thing for local agents), and are read as they are.
--     0 means "not reached" for optional times; logon_us is -1 until the session is active.
--   - timer names are interned in timer_names (samples hold name_id), so a sample row is small.
--   - no secret is ever stored: runs.plan_text is the plan after the caller redacted it.

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
INSERT INTO meta (key, value) VALUES ('application', 'sessmax');

CREATE TABLE runs (
    id               INTEGER PRIMARY KEY,
    name             TEXT NOT NULL,
    transport        TEXT NOT NULL DEFAULT '',
    platform         TEXT NOT NULL DEFAULT '',
    network          TEXT NOT NULL DEFAULT '',
    target           TEXT NOT NULL DEFAULT '',
    workload_name    TEXT NOT NULL DEFAULT '',
    workload_hash    TEXT NOT NULL DEFAULT '',
    plan_text        TEXT NOT NULL DEFAULT '',
    score_params     TEXT NOT NULL DEFAULT '',
    sessions_planned INTEGER NOT NULL DEFAULT 0,
    started_us       INTEGER NOT NULL,
    ended_us         INTEGER NOT NULL DEFAULT 0,
    status           TEXT NOT NULL DEFAULT 'running'
                     CHECK (status IN ('running', 'completed', 'aborted', 'failed')),
    message          TEXT NOT NULL DEFAULT '',
    -- score fields: NULL until `sessmax score` (or the end of `sessmax run`) stores them
    score_version    TEXT,
    baseline_ms      REAL,
    threshold_ms     REAL,
    smax             INTEGER,
    smax_reached     INTEGER,
    launched         INTEGER,
    active           INTEGER,
    stuck            INTEGER,
    verdict          TEXT,
    verdict_reasons  TEXT,
    -- added in version 3: the network profile the RDP traffic was shaped to (JSON)
    network_profile  TEXT NOT NULL DEFAULT '',
    -- added in version 5: the client program ('builtin': the FreeRDP engine), and the matrix
    -- (matrices.id, 0: none) and cell ("network=lan,sessions=4") a `sessmax matrix` run belongs to
    client           TEXT NOT NULL DEFAULT 'builtin',
    matrix_id        INTEGER NOT NULL DEFAULT 0,
    cell             TEXT NOT NULL DEFAULT ''
);
CREATE INDEX runs_status ON runs (status);
CREATE INDEX runs_matrix ON runs (matrix_id, cell);

-- Added in version 5: one row per `sessmax matrix` (spec: plan hash, --vary keys, repeats), so
-- `--resume` finds the matrix to continue.
CREATE TABLE matrices (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    spec       TEXT NOT NULL,
    started_us INTEGER NOT NULL
);

CREATE TABLE agents (
    id       INTEGER PRIMARY KEY,
    run_id   INTEGER NOT NULL REFERENCES runs (id),
    name     TEXT NOT NULL,
    host     TEXT NOT NULL DEFAULT '',
    capacity INTEGER NOT NULL DEFAULT 0,
    status   TEXT NOT NULL DEFAULT 'connecting',
    detail   TEXT NOT NULL DEFAULT '',
    clock_offset_us INTEGER NOT NULL DEFAULT 0,   -- the agent's wall clock minus the controller's
    rtt_us          INTEGER NOT NULL DEFAULT 0    -- round trip of the best handshake probe; 0 unknown
);
CREATE INDEX agents_run ON agents (run_id);

CREATE TABLE sessions (
    run_id    INTEGER NOT NULL REFERENCES runs (id),
    idx       INTEGER NOT NULL,
    agent_id  INTEGER NOT NULL DEFAULT 0,
    user      TEXT NOT NULL DEFAULT '',
    state     TEXT NOT NULL DEFAULT 'launched'
              CHECK (state IN ('launched', 'active', 'failed', 'ended')),
    reason    TEXT NOT NULL DEFAULT 'none',
    detail    TEXT NOT NULL DEFAULT '',
    launch_us INTEGER NOT NULL DEFAULT 0,
    active_us INTEGER NOT NULL DEFAULT 0,
    end_us    INTEGER NOT NULL DEFAULT 0,
    logon_us  INTEGER NOT NULL DEFAULT -1,
    PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;
CREATE INDEX sessions_agent ON sessions (run_id, agent_id);

CREATE TABLE timer_names (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);

-- The reader loads a run's samples ordered by (t_us, rowid): samples_run_t serves that order.
CREATE TABLE samples (
    run_id     INTEGER NOT NULL,
    session    INTEGER NOT NULL,
    loop       INTEGER NOT NULL DEFAULT 0,
    t_us       INTEGER NOT NULL,
    name_id    INTEGER NOT NULL,
    value_us   INTEGER NOT NULL,
    ok         INTEGER NOT NULL,
    is_measure INTEGER NOT NULL DEFAULT 0,
    active     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX samples_run_t ON samples (run_id, t_us);

CREATE TABLE traffic (
    run_id    INTEGER NOT NULL,
    session   INTEGER NOT NULL,
    t_us      INTEGER NOT NULL,
    bytes_in  INTEGER NOT NULL,
    bytes_out INTEGER NOT NULL,
    wire_in   INTEGER NOT NULL,
    wire_out  INTEGER NOT NULL,
    rtt_us    INTEGER NOT NULL,
    frames    INTEGER NOT NULL,
    -- added in version 3: TCP_INFO segment counters of the client's socket
    data_segs_out INTEGER NOT NULL DEFAULT 0,
    retrans       INTEGER NOT NULL DEFAULT 0,
    data_segs_in  INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX traffic_run_t ON traffic (run_id, t_us);

-- Added in version 2: the agents' own health (timer lateness, CPU, memory).
CREATE TABLE health (
    run_id              INTEGER NOT NULL,
    agent_id            INTEGER NOT NULL,
    t_us                INTEGER NOT NULL,
    sessions_active     INTEGER NOT NULL,
    sessions_connecting INTEGER NOT NULL,
    lag_p50_us          INTEGER NOT NULL,
    lag_p99_us          INTEGER NOT NULL,
    lag_max_us          INTEGER NOT NULL,
    cpu_permille        INTEGER NOT NULL,
    rss_kb              INTEGER NOT NULL
);
CREATE INDEX health_run_t ON health (run_id, t_us);

CREATE TABLE events (
    id     INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL,
    t_us   INTEGER NOT NULL,
    level  TEXT NOT NULL,
    text   TEXT NOT NULL
);
CREATE INDEX events_run_t ON events (run_id, t_us);

-- Added in version 4: the copy timers of a run (a workload timer's `copy:`): how many bytes each
-- moves and which way, so score and report give throughput beside the time.
CREATE TABLE copy_timers (
    run_id    INTEGER NOT NULL,
    name      TEXT NOT NULL,
    to_client INTEGER NOT NULL,          -- 0: client -> server, 1: server -> client
    bytes     INTEGER NOT NULL,
    PRIMARY KEY (run_id, name)
) WITHOUT ROWID;

-- Added in version 7: CPU use of a target running on this machine (a plan's target.local), sampled
-- by the controller: the target's own use and that of every other process on the target's CPUs,
-- each in per mille of those CPUs.
CREATE TABLE target_load (
    run_id           INTEGER NOT NULL,
    t_us             INTEGER NOT NULL,
    cpus             INTEGER NOT NULL,   -- how many CPUs the target may run on
    target_permille  INTEGER NOT NULL,
    others_permille  INTEGER NOT NULL
);
CREATE INDEX target_load_run_t ON target_load (run_id, t_us);
