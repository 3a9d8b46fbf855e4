// Every jest worker: services started in the test process log nothing unless LOG_LEVEL asks (the test
// output is the report; a failing test prints what it saw). Production code has no test branch for this.
process.env.LOG_LEVEL ??= 'silent';
