import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { documentSelector } from '../../client/src/selector';

describe('documentSelector', () => {
  it('analyses Python files and untitled documents', () => {
    assert.deepEqual(documentSelector([]), [{ scheme: 'file', language: 'python' }, { scheme: 'untitled', language: 'python' }]);
    assert.deepEqual(documentSelector(['file', 'file']), [{ scheme: 'file', language: 'python' }, { scheme: 'untitled', language: 'python' }]);
  });

  it('adds the file system of a virtual workspace once', () => {
    assert.deepEqual(documentSelector(['vscode-vfs', 'vscode-vfs']).map((s) => s.scheme), ['file', 'untitled', 'vscode-vfs']);
  });
});
