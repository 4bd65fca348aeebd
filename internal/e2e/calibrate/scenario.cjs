'use strict';
// Preload (node --require) for the official conformance suite. Before each
// scenario the suite logs "=== Running scenario: NAME ===". This hook writes
// NAME to the file descriptor in MCPVERDICT_SCENARIO_OUT and blocks until a
// byte arrives on MCPVERDICT_SCENARIO_IN: the calibration harness uses the
// pause to put a recording proxy of that scenario's own in front of the
// server, so that every request of the scenario lands in its own trace.
const fs = require('node:fs');

const out = Number(process.env.MCPVERDICT_SCENARIO_OUT);
const ack = Number(process.env.MCPVERDICT_SCENARIO_IN);
const pattern = /=== Running scenario: (\S+) ===/;
const log = console.log;

function waitForAck() {
  const buf = Buffer.alloc(1);
  for (;;) {
    try {
      if (fs.readSync(ack, buf, 0, 1, null) === 1) {
        return;
      }
      throw new Error('the calibration harness closed the scenario channel');
    } catch (err) {
      if (err.code !== 'EAGAIN') {
        throw err;
      }
    }
  }
}

console.log = function logAndAnnounce(...args) {
  const match = typeof args[0] === 'string' ? pattern.exec(args[0]) : null;
  if (match && Number.isInteger(out) && Number.isInteger(ack)) {
    fs.writeSync(out, match[1] + '\n');
    waitForAck();
  }
  return log.apply(this, args);
};
