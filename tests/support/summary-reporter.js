// Prints the plain closing line CI reads: "N passed, N failed" with the run's real totals.
// scripts/test.mjs adds its static checks (proto, lint, types) to the same line when it runs jest.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    process.stdout.write(`\njest: ${results.numPassedTests} passed, ${failed} failed\n`);
  }
}
module.exports = SummaryReporter;
