import type { Command } from 'commander';
import { usageError } from './errors.js';

/** Every command path with its subcommand names and options: `catalog services` -> [...]. */
function walk(
  cmd: Command,
  path: string[],
  out: Map<string, { words: string[]; options: string[] }>,
) {
  const words = cmd.commands.map((c) => c.name());
  const options = cmd.options.map((o) => o.long).filter((o): o is string => !!o);
  out.set(path.join(' '), { words, options: [...options, '--json', '--quiet', '--help'] });
  for (const sub of cmd.commands) walk(sub, [...path, sub.name()], out);
  return out;
}

const quote = (words: string[]) => words.join(' ').replace(/'/g, '');

/** A bash completion script: completes command words, then the options of the command reached. */
export function bashCompletion(program: Command): string {
  const tree = walk(program, [], new Map());
  const cases = [...tree]
    .map(
      ([path, { words, options }]) => `    '${path}') words='${quote([...words, ...options])}' ;;`,
    )
    .join('\n');
  return `# bash completion for platform: source <(platform completion bash)
_platform_complete() {
  local cur path words i
  cur="\${COMP_WORDS[COMP_CWORD]}"
  path=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in -*) continue ;; esac
    if [[ -z "$path" ]]; then candidate="\${COMP_WORDS[i]}"; else candidate="$path \${COMP_WORDS[i]}"; fi
    case "$candidate" in
${[...tree.keys()]
  .filter(Boolean)
  .map((p) => `      '${p}') path="$candidate" ;;`)
  .join('\n')}
    esac
  done
  case "$path" in
${cases}
    *) words='' ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _platform_complete platform
`;
}

/** A zsh completion script (compdef), from the same tree. */
export function zshCompletion(program: Command): string {
  const tree = walk(program, [], new Map());
  const cases = [...tree]
    .map(
      ([path, { words, options }]) =>
        `    '${path}') choices=(${[...words, ...options].map((w) => `'${w}'`).join(' ')}) ;;`,
    )
    .join('\n');
  return `#compdef platform
# zsh completion for platform: platform completion zsh > "\${fpath[1]}/_platform"
_platform() {
  local cmdpath="" candidate w
  local -a choices
  for w in \${words[2,CURRENT-1]}; do
    [[ $w == -* ]] && continue
    if [[ -z $cmdpath ]]; then candidate=$w; else candidate="$cmdpath $w"; fi
    case $candidate in
${[...tree.keys()]
  .filter(Boolean)
  .map((p) => `      '${p}') cmdpath=$candidate ;;`)
  .join('\n')}
    esac
  done
  case $cmdpath in
${cases}
    *) choices=() ;;
  esac
  compadd -a choices
}
if [[ "\$funcstack[1]" == "_platform" ]]; then _platform "$@"; else compdef _platform platform; fi
`;
}

export function completionCommand(program: Command): void {
  program
    .command('completion')
    .description('Print a shell completion script: bash or zsh')
    .argument('<shell>', 'bash or zsh')
    .action((shell: string) => {
      if (shell === 'bash') process.stdout.write(bashCompletion(program));
      else if (shell === 'zsh') process.stdout.write(zshCompletion(program));
      else throw usageError(`Unknown shell ${shell}: bash or zsh`);
    });
}
