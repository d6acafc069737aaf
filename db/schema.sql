-- schema.sql -- the sessmax results store, schema version 12 (STORE_SCHEMA_VERSION in store.h).
--
-- Compiled into the binary (db/CMakeLists.txt) and run on a new, empty file inside the same
-- transaction that sets PRAGMA user_version and application_id. Older files are brought here by
-- the migrations in store_migrate.c, never by re-running this text.
--
-- Invariants:
--   - meta.application = 'sessmax' and PRAGMA application_id = 0x53534D58 ('SSMX') mark the file;
--     `sessmax db check` refuses a file that has neither.
--   - sample_chunks, traffic, health and events are append-only: never updated, never deleted.
--     Only runs, agents and sessions rows change after insertion.
--   - every row of a run's children carries run_id; readers always filter by it.
--   - times are wall-clock microseconds since the epoch (*_us); durations are microseconds too.
--     Times an agent reports are stored on the controller's clock (the agent's time less its
--     agents.clock_offset_us); runs stored before that kept samples, traffic, health and session
--     times on the agent's clock (the same thing for local agents), and are read as they are.
--     0 means "not reached" for optional times; logon_us is -1 until the session is active.
--   - timer names are interned in timer_names (samples hold name_id), so a sample record is small.
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
    -- added in version 11: the logon's phases (docs/scoring.md), which add up to logon_us; -1
    -- not measured (an older agent, an external client, a boundary FreeRDP did not show)
    logon_wait_us     INTEGER NOT NULL DEFAULT -1,
    logon_tcp_us      INTEGER NOT NULL DEFAULT -1,
    logon_security_us INTEGER NOT NULL DEFAULT -1,
    logon_rdp_us      INTEGER NOT NULL DEFAULT -1,
    logon_paint_us    INTEGER NOT NULL DEFAULT -1,
    logon_desktop_us  INTEGER NOT NULL DEFAULT -1,
    PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;
CREATE INDEX sessions_agent ON sessions (run_id, agent_id);

CREATE TABLE timer_names (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);

-- Added in version 8: samples are stored in chunks (db/store_chunk.h): one row per up to 1024
-- samples of a run in the order they were stored, each sample a fixed-width record of decimal
-- fields in `data` (widths w_*; t_us as its offset from t_min). The reader loads a run's chunks
-- in id order and orders the samples by (t_us, insertion). `samples` below shows them as rows.
CREATE TABLE sample_chunks (
    id        INTEGER PRIMARY KEY,
    run_id    INTEGER NOT NULL,
    n         INTEGER NOT NULL,            -- samples in this chunk, 1..1024
    t_min     INTEGER NOT NULL,            -- earliest and latest t_us of its samples
    t_max     INTEGER NOT NULL,
    w_session INTEGER NOT NULL,            -- characters of each field in a record
    w_loop    INTEGER NOT NULL,
    w_t       INTEGER NOT NULL,
    w_name    INTEGER NOT NULL,
    w_value   INTEGER NOT NULL,
    w_ok      INTEGER NOT NULL,
    w_measure INTEGER NOT NULL,
    w_active  INTEGER NOT NULL,
    data      BLOB NOT NULL
);
CREATE INDEX sample_chunks_run ON sample_chunks (run_id);

-- 0..1023: the record numbers the `samples` view walks in each chunk.
CREATE TABLE sample_slots (i INTEGER PRIMARY KEY);
WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 1023)
INSERT INTO sample_slots (i) SELECT i FROM k;

-- Every sample as one row (the columns of the samples table of versions 1-7), for sqlite3 users:
-- SELECT ... FROM samples WHERE run_id = 1. Inserting into it stores a one-sample chunk.
CREATE VIEW samples AS
SELECT run_id,
       CAST(substr(data, o, w_session) AS INTEGER) AS session,
       CAST(substr(data, o + w_session, w_loop) AS INTEGER) AS loop,
       t_min + CAST(substr(data, o + w_session + w_loop, w_t) AS INTEGER) AS t_us,
       CAST(substr(data, o + w_session + w_loop + w_t, w_name) AS INTEGER) AS name_id,
       CAST(substr(data, o + w_session + w_loop + w_t + w_name, w_value) AS INTEGER) AS value_us,
       CAST(substr(data, o + w_session + w_loop + w_t + w_name + w_value, w_ok) AS INTEGER) AS ok,
       CAST(substr(data, o + w_session + w_loop + w_t + w_name + w_value + w_ok, w_measure) AS INTEGER)
           AS is_measure,
       CAST(substr(data, o + w_session + w_loop + w_t + w_name + w_value + w_ok + w_measure, w_active)
           AS INTEGER) AS active
FROM (SELECT c.*, 1 + k.i * (w_session + w_loop + w_t + w_name + w_value + w_ok + w_measure + w_active) AS o
      FROM sample_chunks c JOIN sample_slots k ON k.i < c.n);

CREATE TRIGGER samples_insert INSTEAD OF INSERT ON samples
BEGIN
    INSERT INTO sample_chunks (run_id, n, t_min, t_max, w_session, w_loop, w_t, w_name, w_value, w_ok,
                               w_measure, w_active, data)
    VALUES (NEW.run_id, 1, NEW.t_us, NEW.t_us, length(NEW.session), length(coalesce(NEW.loop, 0)), 1,
            length(NEW.name_id), length(NEW.value_us), length(NEW.ok), length(coalesce(NEW.is_measure, 0)),
            length(coalesce(NEW.active, 0)),
            CAST(NEW.session || coalesce(NEW.loop, 0) || '0' || NEW.name_id || NEW.value_us || NEW.ok
                 || coalesce(NEW.is_measure, 0) || coalesce(NEW.active, 0) AS BLOB));
END;

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
    data_segs_in  INTEGER NOT NULL DEFAULT 0,
    -- added in version 11: the kernel's minimum RTT of the socket (tcpi_min_rtt); 0 not known
    min_rtt_us    INTEGER NOT NULL DEFAULT 0
);
-- Changed in version 10: the index holds every column a reader loads, so a run's traffic is read
-- in time order from the index alone (before, each row cost a seek into the table); version 11
-- added min_rtt_us to it.
CREATE INDEX traffic_run_t ON traffic (run_id, t_us, session, bytes_in, bytes_out, wire_in, wire_out, rtt_us,
                                       frames, data_segs_out, retrans, data_segs_in, min_rtt_us);

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
    rss_kb              INTEGER NOT NULL,
    -- Added in version 9: external clients (client: x11) measured in this record, and the sums
    -- of their clients' and X servers' memory and CPU (0 with the built-in engine)
    ext_sessions        INTEGER NOT NULL DEFAULT 0,
    ext_cpu_permille    INTEGER NOT NULL DEFAULT 0,
    ext_client_rss_kb   INTEGER NOT NULL DEFAULT 0,
    ext_client_pss_kb   INTEGER NOT NULL DEFAULT 0,
    ext_xserver_rss_kb  INTEGER NOT NULL DEFAULT 0,
    ext_xserver_pss_kb  INTEGER NOT NULL DEFAULT 0
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

-- Added in version 12: the target's resources, scraped by the controller from the exporters a
-- plan's target.metrics names (node_exporter, windows_exporter, or a Prometheus server's
-- federation of one host), one row per scrape and source with the rates since the previous one.
-- A NULL column is a figure the source does not report.
CREATE TABLE target_metrics (
    run_id           INTEGER NOT NULL,
    t_us             INTEGER NOT NULL,   -- controller wall clock of the scrape
    source           TEXT NOT NULL,      -- "HOST:PORT" of the exporter, or the Prometheus instance label
    active           INTEGER NOT NULL,   -- sessions active at the scrape
    cpu_pct          REAL,               -- busy % of all the host's CPUs
    mem_used_bytes   REAL,
    mem_avail_bytes  REAL,
    disk_read_bps    REAL,               -- bytes/s, summed over the disks
    disk_write_bps   REAL,
    disk_busy_pct    REAL,               -- the busiest disk's busy %
    net_rx_bps       REAL,               -- bytes/s, summed over the interfaces but loopback
    net_tx_bps       REAL,
    net_pct          REAL,               -- the busiest interface's share of its link speed
    sessions         REAL                -- sessions the host itself reports
);
CREATE INDEX target_metrics_run_t ON target_metrics (run_id, t_us);
