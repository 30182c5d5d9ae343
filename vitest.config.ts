import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // SQL files are imported as their text, as scripts/build.mjs's esbuild text loader does.
  plugins: [
    {
      name: 'sql-as-text',
      transform(code, id) {
        return id.endsWith('.sql') ? { code: `export default ${JSON.stringify(code)};`, map: null } : undefined;
      },
    },
  ],
  test: {
    include: ['test/**/*.test.ts'],
    // One PostgreSQL server for the run, started in the background (first: its directory must not
    // be under the owner-only one the next picks); temporary directories on a tmpfs when there is one.
    globalSetup: ['test/helpers/postgresSetup.ts', 'test/helpers/globalSetup.ts'],
    // Hang catchers, not deadlines: tests wait for events and outputs, and a machine at a load of 8
    // takes several times as long as a quiet one, so a limit a busy machine could meet is no limit here.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // Child processes of their own: tests chdir (runInProcess's cwd), and native modules (node-pty) are safer than in threads.
    pool: 'forks',
    // vitest's default in a run is one worker fewer than the cores: one worker on CI's two. The
    // tests wait on child processes, servers and the disk much of the time, so two workers keep both
    // cores busy there.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Files share their worker's module cache instead of importing src/, zod, pdf-lib... afresh for
    // each of the ~85 files (about half the CPU time of a run). What a test changes globally it
    // undoes: spies, stubbed env and globals are restored after every test, runInProcess restores
    // the working directory, tests that set process.env.TZ/XDG_* put them back.
    isolate: false,
    restoreMocks: true,
    unstubEnvs: true,
    unstubGlobals: true,
  },
});
