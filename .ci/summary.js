// Prints the closing line CI reads, from Jest's JSON report; a failure before Jest ran (lint, types, build) counts as one failed check.
const fs = require('node:fs');

const [file, status] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
if (fs.existsSync(file)) {
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  passed = report.numPassedTests;
  failed = report.numFailedTests + report.numRuntimeErrorTestSuites;
  skipped = report.numPendingTests + report.numTodoTests;
}
if (Number(status) !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
