// Pulse insights at the scale of a product (issue 35): a 30-day trend, its unique users, a
// three-step funnel and a retention table over BENCH_PULSE_EVENTS events (default 1 million;
// 10 million with BENCH_PULSE_EVENTS=10000000) on PostgreSQL. Each is timed through the API
// (standalone pulse, HTTP) and against its baseline: the plain SQL of the same query on the
// events table alone (no persons, no time zone, no empty periods), run through pg in the same
// run. BENCH_PULSE_CALLS sets the timed calls of each row (default 20, after 3 to warm up).
import pg from 'pg';
import { databaseUrl, rows, start } from './lib.mjs';

const N = Number(process.env.BENCH_PULSE_EVENTS ?? 1_000_000);
const CALLS = Number(process.env.BENCH_PULSE_CALLS ?? 20);
const END = '2026-11-01T00:00:00Z';
const USERS = Math.max(1000, Math.round(N / 20));

/**
 * N events over the 90 days before END, the same every run (setseed): $pageview 40%, signup 5%,
 * activate 3%, pay 1%, the rest spread over 16 other names; N/20 users, one in ten of them
 * merged into a person with an anonymous id (person_ids).
 */
async function seed(pool) {
  const t0 = performance.now();
  await pool.query(
    'truncate pulse.events, pulse.event_rollups, pulse.person_ids, pulse.persons cascade',
  );
  // A bulk load: the events' indexes (their primary key's too) are dropped first and made again
  // after, from their own definitions (10 million rows with five indexes kept up row by row took
  // over 40 minutes on 2 busy cores).
  const { rows: indexes } = await pool.query(
    `select i.indexname, i.indexdef, c.conname from pg_indexes i
     left join pg_constraint c on c.conname = i.indexname and c.contype = 'p'
     where i.schemaname = 'pulse' and i.tablename = 'events'`,
  );
  for (const index of indexes)
    await pool.query(
      index.conname
        ? `alter table pulse.events drop constraint ${index.conname}`
        : `drop index pulse.${index.indexname}`,
    );
  const chunk = 1_000_000;
  for (let first = 1; first <= N; first += chunk) {
    const last = Math.min(N, first + chunk - 1);
    await pool.query(
      `select setseed(${(first % 997) / 1000});
       insert into pulse.events (id, name, properties, user_id, session_id, timestamp)
       select 'b' || i,
         case when r < 0.40 then '$pageview' when r < 0.45 then 'signup'
              when r < 0.48 then 'activate' when r < 0.49 then 'pay' else 'event_' || (i % 16) end,
         jsonb_build_object('plan', (array['free','pro','team'])[1 + i % 3],
                            '$browser', (array['Chrome','Firefox','Safari','Edge'])[1 + i % 4]),
         'u' || floor(random() * ${USERS})::int, null,
         timestamptz '${END}' - random() * interval '90 days'
       from (select i, random() as r from generate_series(${first}, ${last}) i) s`,
    );
  }
  for (const index of indexes)
    await pool.query(
      `set maintenance_work_mem = '512MB'; ${
        index.conname
          ? `alter table pulse.events add constraint ${index.conname} primary key (id)`
          : index.indexdef
      }`,
    );
  // What insertEvents keeps as events arrive, made at once here.
  await pool.query(
    `insert into pulse.event_rollups (name, slot, count)
     select name, date_bin('15 minutes', timestamp, timestamptz '2001-01-01 00:00:00+00'), count(*)
     from pulse.events group by 1, 2`,
  );
  await pool.query(
    `insert into pulse.persons (id) select 'p' || k from generate_series(0, ${USERS - 1}, 10) k;
     insert into pulse.person_ids (distinct_id, person_id)
       select d, 'p' || k from generate_series(0, ${USERS - 1}, 10) k,
         lateral (values ('u' || k), ('anon-' || k)) v(d)`,
  );
  await pool.query(
    'vacuum analyze pulse.events, pulse.event_rollups, pulse.person_ids, pulse.persons',
  );
  const seconds = (performance.now() - t0) / 1000;
  console.error(`  seeded ${N.toLocaleString()} events in ${seconds.toFixed(0)} s`);
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/** p50/p99 of `run` over CALLS calls after 3 to warm up; a row against `baseline`. */
async function time(name, run, baseline) {
  for (let i = 0; i < 3; i++) await run();
  const times = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const row = { name, p50: percentile(times, 0.5), p99: percentile(times, 0.99), baseline };
  if (baseline) {
    const base = rows.find((r) => r.name === baseline);
    Object.assign(row, { addedP50: row.p50 - base.p50, ratio: row.p50 / base.p50 });
  }
  rows.push(row);
  const added = baseline ? `, ${row.ratio.toFixed(2)} × the plain SQL` : '';
  console.error(`  ${name}: p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms${added}`);
  return row;
}

const from = new Date(Date.parse(END) - 30 * 86_400_000).toISOString();
const to = new Date(Date.parse(END) - 1).toISOString();

/** The plain SQL baselines: the same questions on pulse.events alone. */
const PLAIN = {
  trend: `select date_trunc('day', timestamp at time zone 'UTC') as day, count(*)::int
    from pulse.events where name = $1 and timestamp >= $2 and timestamp <= $3 group by 1 order by 1`,
  unique: `select date_trunc('day', timestamp at time zone 'UTC') as day, count(distinct user_id)::int
    from pulse.events where name = $1 and timestamp >= $2 and timestamp <= $3 group by 1 order by 1`,
  // Each user's first signup, then the first activate after it and the first pay after that, within 14 days.
  funnel: `with s1 as (select user_id, min(timestamp) t1 from pulse.events
      where name = 'signup' and timestamp >= $1 and timestamp <= $2 group by 1),
    s2 as (select s1.user_id, s1.t1, min(e.timestamp) t2 from s1 join pulse.events e
      on e.user_id = s1.user_id and e.name = 'activate' and e.timestamp >= s1.t1
      and e.timestamp <= least($2, s1.t1 + interval '14 days') group by 1, 2),
    s3 as (select s2.user_id from s2 join pulse.events e on e.user_id = s2.user_id
      and e.name = 'pay' and e.timestamp >= s2.t2 and e.timestamp <= least($2, s2.t1 + interval '14 days')
      group by 1)
    select (select count(*) from s1), (select count(*) from s2), (select count(*) from s3)`,
  retention: `with c as (select user_id, date_trunc('day', min(timestamp) at time zone 'UTC')::date d
      from pulse.events where name = 'signup' and timestamp <= $2 group by 1 having min(timestamp) >= $1),
    r as (select distinct user_id, date_trunc('day', timestamp at time zone 'UTC')::date d
      from pulse.events where name = '$pageview' and timestamp >= $1 and timestamp <= $2)
    select c.d, r.d - c.d, count(*) from c join r on r.user_id = c.user_id and r.d >= c.d group by 1, 2`,
};

/** Pulse insights against plain SQL on the same events (issue 35). */
export async function pulseInsights() {
  const server = await start('apps/pulse/dist/main.js', { DATABASE_URL: databaseUrl });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  try {
    await seed(pool);
    const api = (path, query) => async () => {
      const res = await fetch(
        `${server.url}/api/v1/pulse/insights/${path}?${new URLSearchParams(query)}`,
      );
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      await res.json();
    };
    const sqlOf = (text, params) => () => pool.query(text, params);
    const label = `${(N / 1e6).toLocaleString()}M events`;
    const range = [from, to];
    const cases = [
      [
        '30-day trend of $pageview by day',
        PLAIN.trend,
        ['$pageview', ...range],
        'trends',
        { event: '$pageview', from, to },
      ],
      [
        '30-day trend, unique users',
        PLAIN.unique,
        ['$pageview', ...range],
        'trends',
        { event: '$pageview', from, to, math: 'unique_users' },
      ],
      [
        '30-day funnel signup, activate, pay',
        PLAIN.funnel,
        range,
        'funnels',
        { steps: 'signup,activate,pay', from, to },
      ],
      [
        '30-day daily retention signup -> $pageview',
        PLAIN.retention,
        range,
        'retention',
        { event: 'signup', returnEvent: '$pageview', from, to },
      ],
    ];
    for (const [name, text, params, path, query] of cases) {
      const base = await time(`${name}, plain SQL (${label})`, sqlOf(text, params));
      await time(`${name}, API (${label})`, api(path, query), base.name);
    }
    await time(
      `30-day trend of $pageview by day, Europe/Berlin, API (${label})`,
      api('trends', {
        event: '$pageview',
        from: '2026-10-02',
        to: '2026-10-31',
        tz: 'Europe/Berlin',
      }),
      `30-day trend of $pageview by day, plain SQL (${label})`,
    );
  } finally {
    await pool.end();
  }
}
