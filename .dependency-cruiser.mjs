// Which way imports may point (docs/architecture.md, "Shape"). Checked in `npm test` by
// infra/checks/test/imports.unit.test.ts; `npm run check:imports` runs it alone.
// Type-only imports count: a type import still ties one part's code to another's.
export default {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'A cycle makes two modules one: neither can be read, tested or moved alone.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'packages-import-packages-only',
      severity: 'error',
      comment: 'Shared code is shared by everyone, so it knows none of its users: no shell, remote, service, e2e or infra (tests included).',
      from: { path: '^packages/' },
      to: { path: '^(shell|mfe-[^/]+|services|infra|e2e)/' },
    },
    {
      name: 'services-not-each-other',
      severity: 'error',
      comment: 'Services talk through HTTP contracts and events (packages/contracts), never through each other\'s code.',
      from: { path: '^services/([^/]+)/' },
      to: { path: '^services/', pathNot: '^services/$1/' },
    },
    {
      name: 'service-code-not-infra',
      severity: 'error',
      comment: 'A service runs the same under npm start and in the cluster: its code never reaches into the local runner or the checks.',
      from: { path: '^services/[^/]+/src/' },
      to: { path: '^infra/' },
    },
    {
      name: 'service-tests-only-the-local-harness',
      severity: 'error',
      comment:
        "A service's tests and benches run on the stores infra/local starts: they may use its entry points (startStores, freePort, createEdge, testStores), never its internals.",
      from: { path: '^services/[^/]+/(test|bench)/' },
      to: { path: '^infra/', pathNot: '^infra/local/src/(index|testing)\\.ts$' },
    },
    {
      name: 'infra-not-service-code',
      severity: 'error',
      comment: 'The runner and the checks start services as processes and read what they serve; what they need to know comes from the contracts.',
      from: { path: '^infra/' },
      to: { path: '^(services|shell|mfe-[^/]+)/' },
    },
    {
      name: 'remotes-independent',
      severity: 'error',
      comment: 'A remote is built and deployed alone: it imports neither the shell nor another remote.',
      from: { path: '^mfe-([^/]+)/' },
      to: { path: '^(shell|mfe-[^/]+)/', pathNot: '^mfe-$1/' },
    },
    {
      name: 'shell-loads-remotes-at-run-time',
      severity: 'error',
      comment:
        'The shell mounts remotes through Module Federation: it checks their types (shell/src/remotes.ts) but bundles their code only in the one-bundle build `npm run size` compares with; its tests read the remotes\' area declarations.',
      from: { path: '^shell/', pathNot: '^shell/(src/remotes\\.bundled\\.ts$|test/)' },
      to: { path: '^mfe-[^/]+/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'shell-types-remotes-in-one-place',
      severity: 'error',
      comment:
        "Even a remote's types reach the shell in one place only: shell/src/remotes.ts checks what it mounts against each remote's `./routes`; any other shell file knows a remote by its published area.json.",
      from: { path: '^shell/', pathNot: '^shell/(src/remotes(\\.bundled)?\\.ts$|test/)' },
      to: { path: '^mfe-[^/]+/', dependencyTypes: ['type-only'] },
    },
    {
      name: 'frontends-not-backend',
      severity: 'error',
      comment: 'Browser code talks to services over HTTP only.',
      from: { path: '^(shell|mfe-[^/]+)/' },
      to: { path: '^(services|infra)/' },
    },
    {
      name: 'e2e-not-service-code',
      severity: 'error',
      comment: 'The browser tests drive the running platform from outside; shared facts (demo accounts, rules) come from the contracts.',
      from: { path: '^e2e/' },
      to: { path: '^services/' },
    },
    {
      name: 'nothing-imports-e2e',
      severity: 'error',
      comment: 'The browser tests use the platform; nothing uses them.',
      from: { pathNot: '^e2e/' },
      to: { path: '^e2e/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing is a typo or a missing dependency.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|\\.data|\\.tools|coverage)/' },
    // Type-only imports are dependencies too (TypeScript erases them, this check should not).
    tsPreCompilationDeps: true,
    // The browser config: it maps 'listings/routes' etc. to the remotes' source, so the shell's
    // type imports of its remotes resolve to real files.
    tsConfig: { fileName: 'tsconfig.web.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
    // Symlinked workspaces (node_modules/@ruilplein/*) count as the folders they point to.
    preserveSymlinks: false,
  },
};
