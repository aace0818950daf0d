/** Parses a config file in the format its name says, into the shared TNode tree. */
import { formatOf, type ConfigFormat, type TNode } from './config-tree.js';
import { parseJsonTree } from './tree-json.js';
import { parseTomlTree } from './tree-toml.js';
import { parseYamlTree } from './tree-yaml.js';

/** The tree of a config (undefined for an empty file); syntax errors are InputErrors with line and column. */
export function parseConfig(text: string, file: string, format: ConfigFormat = formatOf(file)): TNode | undefined {
  if (format === 'toml') return parseTomlTree(text, file);
  if (format === 'yaml') return parseYamlTree(text, file);
  return parseJsonTree(text, file);
}
