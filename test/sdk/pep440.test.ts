// vis-agent requirements with PEP 440/508 semantics, and the SDK releases the versions they admit can be.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRequirement, releasesAdmitting, specifierInterval, visAgentInterval, type VersionInterval } from '../../server/src/sdk';

/** The generations (and G1 release ids) a requirement's versions can be. */
function admits(text: string): string[] {
  const read = visAgentInterval(text);
  if (!read || 'error' in read) return [];
  const rs = releasesAdmitting(read.interval);
  return [...new Set(rs.map((r) => (r.family === 'g1' ? r.id : r.generation)))];
}

describe('vis-agent requirements', () => {
  it('parses PEP 508 requirements: extras, parentheses, markers, URLs and name normalization', () => {
    assert.deepEqual(parseRequirement('vis-agent>=0.2.45'), { name: 'vis-agent', specifier: '>=0.2.45', marker: undefined });
    assert.deepEqual(parseRequirement('Vis_Agent[cli] (>=0.2, <1) ; python_version >= "3.11"'), { name: 'vis-agent', specifier: '>=0.2, <1', marker: 'python_version >= "3.11"' });
    assert.deepEqual(parseRequirement('vis-agent @ git+https://example.invalid/vis'), { name: 'vis-agent', specifier: '', url: 'git+https://example.invalid/vis', marker: undefined });
    assert.equal(parseRequirement('vis-agent 0.2'), undefined);
  });

  it('turns specifier sets into intervals (>=, >, <, <=, ==, ==X.*, ~=, !=)', () => {
    const bounds = (i: VersionInterval | { error: string }) => ('error' in i ? i.error : [i.lo && `${i.lo.inclusive ? '[' : '('}${i.lo.version}`, i.hi && `${i.hi.version}${i.hi.inclusive ? ']' : ')'}`]);
    assert.deepEqual(bounds(specifierInterval('>=0.2.45')), ['[0.2.45', undefined]);
    assert.deepEqual(bounds(specifierInterval('>0.1.41,<0.2.10')), ['(0.1.41', '0.2.10)']);
    assert.deepEqual(bounds(specifierInterval('==0.1.41')), ['[0.1.41', '0.1.41]']);
    assert.deepEqual(bounds(specifierInterval('==0.2.*')), ['[0.2', '0.3)']);
    assert.deepEqual(bounds(specifierInterval('~=0.2.26')), ['[0.2.26', '0.3)']);
    assert.deepEqual(bounds(specifierInterval('~=1.4')), ['[1.4', '2)']);
    assert.deepEqual(bounds(specifierInterval('!=0.2.0')), [undefined, undefined]);
    assert.deepEqual(bounds(specifierInterval('>=1, >=2, <3, <=2.5')), ['[2', '2.5]']);
    assert.equal(bounds(specifierInterval('>=banana')), "'>=banana' is not a PEP 440 version specifier");
  });

  it('maps versions to the SDK: 0.1.41 is G1, 0.1.45 still registers with register (G2), 0.2.10 and later with register_extension (G3)', () => {
    assert.deepEqual(admits('vis-agent==0.1.41'), ['vis-0.1.41']);
    assert.deepEqual(admits('vis-agent<0.1.41'), ['g1-docs']);
    assert.deepEqual(admits('vis-agent==0.1.45'), ['G2']);
    assert.deepEqual(admits('vis-agent>=0.1.45'), ['G2', 'G3'], 'the boundary between G2 and G3 is not known');
    assert.deepEqual(admits('vis-agent>=0.2.10'), ['G3']);
    assert.deepEqual(admits('vis-agent>=0.2.45'), ['G3']);
    assert.deepEqual(admits('vis-agent~=0.2.26'), ['G3']);
    assert.deepEqual(admits('vis-agent'), ['g1-docs', 'vis-0.1.41', 'G2', 'G3']);
    assert.deepEqual(admits('vis-agent>=0.1,<=0.1.41'), ['g1-docs', 'vis-0.1.41']);
  });

  it('reads bare specifiers and locked versions, and ignores other packages and URLs', () => {
    assert.deepEqual(admits('0.2.45'), ['G3'], 'uv.lock: the locked version');
    assert.deepEqual(admits('>=0.2.45'), ['G3']);
    assert.equal(visAgentInterval('ruff>=0.14'), undefined);
    assert.equal(visAgentInterval('vis-agent @ https://example.invalid/vis.whl'), undefined);
    assert.deepEqual(visAgentInterval('vis-agent>=x'), { error: "'>=x' is not a PEP 440 version specifier" });
  });
});
