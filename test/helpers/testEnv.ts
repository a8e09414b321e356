/**
 * Loaded before every suite (.mocharc.cjs `require`, and `npm run test:file`): tests run as a
 * development build does, so every tool answer is checked against its published output schema
 * before it is sent, in this process and in every program a test starts (they inherit the
 * environment), and an undeclared field fails the test that met it (server/src/tools/outputContract.ts).
 */
process.env.WSCTX_VALIDATE_OUTPUT = '1';
