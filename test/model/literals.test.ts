import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pyFloatRepr } from '../../server/src/model/literals';

describe('pyFloatRepr', () => {
  it("matches CPython 3.11's repr(float)", () => {
    // Left: the float; right: repr() printed by CPython 3.11.
    const cases: [number, string][] = [
      [1.0, '1.0'],
      [1e16, '1e+16'],
      [1e20, '1e+20'],
      [0.1, '0.1'],
      [1.5e-7, '1.5e-07'],
      [123456789012345678.0, '1.2345678901234568e+17'],
      [-2.5, '-2.5'],
      [1e-4, '0.0001'],
      [1e-5, '1e-05'],
      [9999999999999998.0, '9999999999999998.0'],
      [1234.5678, '1234.5678'],
      [-0.0, '-0.0'],
      [5e-324, '5e-324'],
      [1.7976931348623157e308, '1.7976931348623157e+308'],
      [0.000123, '0.000123'],
      [100.0, '100.0'],
      [1e15, '1000000000000000.0'],
      [123e-20, '1.23e-18'],
      [Infinity, 'inf'],
      [-Infinity, '-inf'],
      [NaN, 'nan'],
    ];
    for (const [x, repr] of cases) assert.equal(pyFloatRepr(x), repr, String(x));
  });
});
