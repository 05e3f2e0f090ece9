// The check of the project's own configuration: a `[tool.vis-authoring]` table that cannot be read as
// written (an unknown key or rule id, a severity that is not one) is reported on the pyproject.toml.
import type { RuleMeta } from '../rules/types';

export const CONFIG_RULE = 'CFG-001';

export const configRules: RuleMeta[] = [
  {
    id: CONFIG_RULE,
    severity: 'warning',
    summary: '[tool.vis-authoring] in pyproject.toml has a key, rule id or severity that vis-authoring does not know; that part is not applied.',
  },
];
