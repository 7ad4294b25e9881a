import { describe, expect, it } from 'vitest';
import { fileShownBy } from '../../src/engine/fileViews';

describe('which tool calls show a file', () => {
  it('recognises read tools, shell commands that print one file, and edits', () => {
    expect(fileShownBy({ name: 'Read', input: { file_path: 'src/a.ts' } })).toBe('src/a.ts');
    expect(fileShownBy({ name: 'bash', input: { command: 'cat patch.txt' } })).toBe('patch.txt');
    expect(fileShownBy({ name: 'bash', input: { command: "sed -n '100,160p' src/sqlfluff/rules/L036.py" } })).toBe('src/sqlfluff/rules/L036.py');
    expect(fileShownBy({ name: 'bash', input: { command: 'head -50 django/db/models/base.py' } })).toBe('django/db/models/base.py');
    expect(fileShownBy({ name: 'Edit', input: { file_path: 'src/b.ts', old_string: 'x', new_string: 'y' } })).toBe('src/b.ts');
  });

  it('ignores commands that write, pipe or run several things', () => {
    expect(fileShownBy({ name: 'bash', input: { command: "cat > test.py << 'EOF'\nprint(1)\nEOF" } })).toBeUndefined();
    expect(fileShownBy({ name: 'bash', input: { command: 'cat a.py | grep foo' } })).toBeUndefined();
    expect(fileShownBy({ name: 'bash', input: { command: 'python -m pytest tests/test_x.py' } })).toBeUndefined();
    expect(fileShownBy({ name: 'Bash', input: { command: 'ls src' } })).toBeUndefined();
    expect(fileShownBy(undefined)).toBeUndefined();
  });
});
