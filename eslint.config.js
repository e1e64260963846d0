import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/', '**/dist/', '.data/', '.tools/', '.cache/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // The Rules of React for every React folder: the hooks rules and the compiler's checks, each an
    // error (the recommended set warns on a few, exhaustive-deps among them). A disable names its
    // reason on the same line.
    files: ['shell/**/*.{ts,tsx}', 'mfe-*/**/*.{ts,tsx}', 'packages/ui/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: Object.fromEntries(Object.keys(reactHooks.configs.flat.recommended.rules).map((rule) => [rule, 'error'])),
  },
  {
    // One clock (packages/service-kit/src/clock.ts): what ends by itself (blocks, Premium, the
    // six-hour head start, link tokens) reads the platform's time, which browser tests and demos
    // move. A reading that must be real time (a JWT's exp, a NATS start time) says why in a
    // disable comment; durations use performance.now().
    files: ['services/*/src/**/*.ts', 'packages/service-kit/src/**/*.ts'],
    ignores: ['packages/service-kit/src/clock.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[object.name='Date'][property.name='now']", message: "Use now()/nowMs() from @ruilplein/service-kit (the platform's clock), or performance.now() for a duration." },
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: "Use now() from @ruilplein/service-kit (the platform's clock) instead of new Date()." },
      ],
    },
  },
);
