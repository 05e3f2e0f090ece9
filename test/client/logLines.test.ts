// The levels of the language client's output lines in the LogOutputChannel.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyClientLine } from '../../client/src/logLines';

describe('classifyClientLine', () => {
  it('reads the level and drops the client timestamp', () => {
    assert.deepEqual(classifyClientLine('[Error - 10:11:12 AM] Starting client failed'), { level: 'error', text: 'Starting client failed' });
    assert.deepEqual(classifyClientLine('[Warn  - 9:01:02 PM] Request textDocument/hover failed.'), { level: 'warn', text: 'Request textDocument/hover failed.' });
    assert.deepEqual(classifyClientLine('[Info  - 09:01:02] [vis-authoring] ready'), { level: 'info', text: '[vis-authoring] ready' });
  });

  it('logs a clean exit (a restart) at info, not as an error', () => {
    assert.deepEqual(classifyClientLine('[Error - 10:11:12 AM] Server process exited with code 0.'), { level: 'info', text: 'The language server process exited cleanly (code 0).' });
    assert.deepEqual(classifyClientLine('[Error - 10:11:12 AM] Server process exited with code 1.'), { level: 'error', text: 'Server process exited with code 1.' });
  });

  it('keeps other lines (stack traces, the server stderr) at info', () => {
    assert.deepEqual(classifyClientLine('    at Object.<anonymous> (server.js:1:2)'), { level: 'info', text: '    at Object.<anonymous> (server.js:1:2)' });
  });
});
