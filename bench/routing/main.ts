/**
 * bench/routing: how well the orchestrator's built-in router understands people, on a labelled
 * set (bench/routing/utterances.json, cards in cards.json), per category and overall, on the dev
 * split and the 30 % holdout, and what a decision costs with the set's agents padded to 50.
 * Each utterance goes through TurnPlanner.plan, as the orchestrator runs it; follow-ups and topic
 * changes are a conversation's second turn, after a first turn planned and remembered as the
 * orchestrator does (--context labelled: the first turn taken to have gone to its labelled agent).
 *
 *   npm run bench:routing [-- --split dev|holdout|all] [--embeddings on|off] [--context driven|labelled]
 *                           [--failures [--why]] [--agents 50] [--rounds 3] [--set main|fresh|second-household|third-household|fourth-household|fifth-household|sixth-household|seventh-household|eighth-household|ninth-household|tenth-household|eleventh-household|twelfth-household|thirteenth-household|fourteenth-household|fifteenth-household|sixteenth-household|seventeenth-household|eighteenth-hub]
 *                           [--latency on|off]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { AgentProfile } from '../../src/a2a/agent-profile';
import { empty } from '../../src/orchestration/context/orchestration-context.store';
import { AppConfig } from '../../src/platform/config/app-config';
import { validateEnvironment } from '../../src/platform/config/environment';
import { latencyStats } from '../a2a-send/load';
import { CATEGORIES, distractorAgents, labelledAgents, Split, Utterance, utterances } from './labelled-set';
import { ContextMode, planner, RoutingOutcome, routeUtterance } from './planner';
import { formatScores, score, Scores } from './scores';

const PROJECT_ROOT = join(__dirname, '..', '..');

function options() {
  const { values } = parseArgs({
    options: {
      split: { type: 'string', default: 'all' },
      embeddings: { type: 'string', default: 'on' },
      context: { type: 'string', default: 'driven' },
      failures: { type: 'boolean', default: false },
      why: { type: 'boolean', default: false },
      agents: { type: 'string', default: '50' },
      rounds: { type: 'string', default: '3' },
      set: { type: 'string', default: 'main' },
      latency: { type: 'string', default: 'on' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(
      'npm run bench:routing -- [--split dev|holdout|all] [--embeddings on|off] [--context driven|labelled] ' +
        '[--failures [--why]] [--agents 50] [--rounds 3] [--set main|fresh|second-household|third-household|fourth-household|fifth-household|sixth-household|seventh-household|eighth-household|ninth-household|tenth-household|eleventh-household|twelfth-household|thirteenth-household|fourteenth-household|fifteenth-household|sixteenth-household|seventeenth-household|eighteenth-hub] ' +
        '[--latency on|off]',
    );
    process.exit(0);
  }
  if (!['dev', 'holdout', 'all'].includes(values.split)) throw new Error('--split is dev, holdout or all');
  if (!['on', 'off'].includes(values.embeddings)) throw new Error('--embeddings is on or off');
  if (!['driven', 'labelled'].includes(values.context)) throw new Error('--context is driven or labelled');
  if (!['on', 'off'].includes(values.latency)) throw new Error('--latency is on or off');
  const agents = Number(values.agents);
  if (!Number.isInteger(agents) || agents < 9) throw new Error('--agents is an integer ≥ 9');
  const rounds = Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds is an integer ≥ 1');
  return {
    splits: (values.split === 'all' ? ['dev', 'holdout'] : [values.split]) as Split[],
    embeddings: values.embeddings === 'on',
    context: values.context as ContextMode,
    failures: values.failures || values.why,
    why: values.why,
    agents,
    rounds,
    set: values.set,
    latency: values.latency === 'on',
  };
}

function splitOf(all: Utterance[], split: Split): Utterance[] {
  return all.filter((u) => u.split === split);
}

async function evaluate(
  plan: Awaited<ReturnType<typeof planner>>,
  items: Utterance[],
  agents: AgentProfile[],
  mode: ContextMode,
): Promise<RoutingOutcome[]> {
  const outcomes: RoutingOutcome[] = [];
  for (const item of items) outcomes.push(await routeUtterance(plan, item, agents, mode));
  return outcomes;
}

async function main(): Promise<void> {
  const opts = options();
  const config = new AppConfig(validateEnvironment({ ROUTER_EMBEDDINGS: String(opts.embeddings) }));
  const agents = labelledAgents(opts.set);
  const plan = await planner(config);
  const all = utterances(opts.set);
  console.log(
    `Routing benchmark - ${new Date().toISOString()} - set ${opts.set}: ${all.length} utterances, ${agents.length} agents, ` +
      `model ${plan.encoder.status.state}${plan.encoder.status.state === 'ready' ? ` (loaded in ${plan.encoder.status.loadMs} ms)` : ''}, ` +
      `conversations' first turns ${opts.context}`,
  );
  const results: Record<string, Scores> = {};
  for (const split of opts.splits) {
    const outcomes = await evaluate(plan, splitOf(all, split), agents, opts.context);
    results[split] = score(outcomes);
    // Misses are listed for the dev split only: the holdout is not for tuning.
    if (opts.failures && split === 'dev') {
      console.log(`\ndev misses (${outcomes.filter((x) => !x.correct).length}):`);
      for (const o of outcomes.filter((x) => !x.correct)) {
        console.log(
          `  ✗ [${o.item.category}] ${conversation(o)}"${o.item.text}" → ` +
            `${o.asked ? 'asked' : o.agents.join('+')}${o.question ? ' + question' : ''}, want ${o.item.expect.join('+') || 'a question'}`,
        );
        if (opts.why) {
          if (o.firstReasoning !== undefined) console.log(`      first turn: ${o.firstReasoning}`);
          console.log(`      why: ${o.reasoning}`);
        }
      }
    }
  }
  console.log(`\n${formatScores(results)}`);
  // --latency off: accuracy only (the latency run plans the whole set again, on more agents).
  const latency = opts.latency ? await measureLatency(opts, config, agents, all, results.holdout) : undefined;
  const dir = join(PROJECT_ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `routing-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ options: opts, model: plan.encoder.status, results, latency }, null, 2));
  console.log(`\nResults: ${file}`);
}

/**
 * Decision latency among many agents: the labelled set's agents padded with thin cards, each
 * round on a new planner (its model's request cache empty) whose cards are embedded first (its
 * first decision). Only the turn scored is timed (not a conversation's first turn). Rounds are
 * pooled: a p99 over one round's few hundred decisions is one or two samples.
 */
async function measureLatency(
  opts: ReturnType<typeof options>,
  config: AppConfig,
  agents: AgentProfile[],
  all: Utterance[],
  holdout: Scores | undefined,
) {
  const many = [...agents, ...distractorAgents(opts.agents - agents.length)];
  const measured: RoutingOutcome[] = [];
  const cardsMs: number[] = [];
  for (let round = 0; round < opts.rounds; round++) {
    const fresh = await planner(config);
    const started = process.hrtime.bigint();
    await fresh.plan('hello there', 'hello there', empty('warm-up'), many);
    cardsMs.push(Number(process.hrtime.bigint() - started) / 1e6);
    measured.push(...(await evaluate(fresh, all, many, opts.context)));
  }
  const byEvidence = (semantic: boolean) =>
    latencyStats(measured.filter((o) => o.semantic === semantic).map((o) => o.ms));
  const lexical = byEvidence(false);
  const semantic = byEvidence(true);
  const overall = latencyStats(measured.map((o) => o.ms));
  console.log(
    `\nDecision latency with ${many.length} agents (the set ${opts.rounds} times, each time on a new planner; ` +
      `embedding the cards first took ${cardsMs.map((ms) => Math.round(ms)).join(', ')} ms):\n`,
  );
  console.log('| decided by | decisions | p50 ms | p99 ms |\n|---|---:|---:|---:|');
  const row = (name: string, n: number, l: { p50: number; p99: number }) =>
    console.log(`| ${name} | ${n} | ${l.p50.toFixed(3)} | ${l.p99.toFixed(3)} |`);
  row('card words', measured.filter((o) => !o.semantic).length, lexical);
  row('model consulted', measured.filter((o) => o.semantic).length, semantic);
  row('all', measured.length, overall);
  const targets = judge(holdout, lexical.p99, semantic.p99);
  if (targets.length) console.log(`\nTargets (holdout):\n${targets.map((t) => `  ${t}`).join('\n')}`);
  return { lexical, semantic, overall, cardsMs };
}

/** `"what the user said first" (→ its labelled agent; ✗ when routed otherwise) then ` for a conversation's second turn. */
function conversation(o: RoutingOutcome): string {
  if (o.item.before === undefined) return '';
  return `"${o.item.before}" (${o.item.previous}${o.firstTurnAsLabelled ? '' : ', first turn routed otherwise'}) then `;
}

function judge(holdout: Scores | undefined, lexicalP99: number, semanticP99: number): string[] {
  if (!holdout) return [];
  const pct = (category: (typeof CATEGORIES)[number]) => holdout.byCategory[category]?.accuracy ?? NaN;
  const rows: [string, number, number, 'min' | 'max'][] = [
    ['overall', holdout.overall, 0.9, 'min'],
    ['paraphrase', pct('paraphrase'), 0.75, 'min'],
    ['typo', pct('typo'), 0.8, 'min'],
    ['multi-intent exact set', pct('multi-intent'), 0.85, 'min'],
    ['follow-up', pct('follow-up'), 0.95, 'min'],
    ['clarification precision', holdout.clarification.precision, 0.75, 'min'],
    ['clarification recall', holdout.clarification.recall, 0.85, 'min'],
    ['wrong-agent rate', holdout.wrongAgentRate, 0.02, 'max'],
    ['decision p99, card words decided (ms)', lexicalP99, 1, 'max'],
    ['decision p99, model consulted (ms)', semanticP99, 60, 'max'],
  ];
  return rows.map(([name, value, limit, kind]) => {
    const met = kind === 'min' ? value >= limit : value <= limit;
    const shown = name.includes('(ms)') ? value.toFixed(2) : `${(value * 100).toFixed(1)} %`;
    const bound = name.includes('(ms)') ? String(limit) : `${limit * 100} %`;
    return `${met ? 'MET ' : 'MISS'} ${name}: ${shown} (${kind === 'min' ? '≥' : '≤'} ${bound})`;
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
