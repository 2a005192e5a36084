/**
 * bench/routing: how well the orchestrator's built-in router understands people, on a labelled
 * set (bench/routing/utterances.json, cards in cards.json), per category and overall, on the dev
 * split and the 30 % holdout, and what a decision costs with the set's agents padded to 50.
 * Each utterance goes through TurnPlanner.plan, as the orchestrator runs it; follow-ups and topic
 * changes carry the conversation's previous agent in their context.
 *
 *   npm run bench:routing [-- --split dev|holdout|all] [--embeddings on|off] [--failures] [--agents 50]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { AgentProfile } from '../../src/a2a/agent-profile';
import { AppConfig } from '../../src/platform/config/app-config';
import { validateEnvironment } from '../../src/platform/config/environment';
import { latencyStats } from '../a2a-send/load';
import { CATEGORIES, distractorAgents, labelledAgents, Split, Utterance, utterances } from './labelled-set';
import { planner, RoutingOutcome, routeUtterance } from './planner';
import { formatScores, score, Scores } from './scores';

const PROJECT_ROOT = join(__dirname, '..', '..');

function options() {
  const { values } = parseArgs({
    options: {
      split: { type: 'string', default: 'all' },
      embeddings: { type: 'string', default: 'on' },
      failures: { type: 'boolean', default: false },
      agents: { type: 'string', default: '50' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log('npm run bench:routing -- [--split dev|holdout|all] [--embeddings on|off] [--failures] [--agents 50]');
    process.exit(0);
  }
  if (!['dev', 'holdout', 'all'].includes(values.split)) throw new Error('--split is dev, holdout or all');
  if (!['on', 'off'].includes(values.embeddings)) throw new Error('--embeddings is on or off');
  const agents = Number(values.agents);
  if (!Number.isInteger(agents) || agents < 9) throw new Error('--agents is an integer ≥ 9');
  return {
    splits: (values.split === 'all' ? ['dev', 'holdout'] : [values.split]) as Split[],
    embeddings: values.embeddings === 'on',
    failures: values.failures,
    agents,
  };
}

async function evaluate(
  plan: Awaited<ReturnType<typeof planner>>,
  items: Utterance[],
  agents: AgentProfile[],
): Promise<RoutingOutcome[]> {
  const outcomes: RoutingOutcome[] = [];
  for (const item of items) outcomes.push(await routeUtterance(plan, item, agents));
  return outcomes;
}

async function main(): Promise<void> {
  const opts = options();
  const config = new AppConfig(validateEnvironment({ ROUTER_EMBEDDINGS: String(opts.embeddings) }));
  const agents = labelledAgents();
  const plan = await planner(config);
  const all = utterances();
  console.log(
    `Routing benchmark - ${new Date().toISOString()} - ${all.length} utterances, ${agents.length} agents, ` +
      `model ${plan.encoder.status.state}${plan.encoder.status.state === 'ready' ? ` (loaded in ${plan.encoder.status.loadMs} ms)` : ''}`,
  );
  const results: Record<string, Scores> = {};
  for (const split of opts.splits) {
    const items = all.filter((u) => u.split === split);
    const outcomes = await evaluate(plan, items, agents);
    results[split] = score(outcomes);
    console.log(`\n${split} (${items.length} utterances)\n${formatScores(results[split])}`);
    // Failures are shown for the dev split only: the holdout is not for tuning.
    if (opts.failures && split === 'dev') {
      for (const o of outcomes.filter((x) => !x.correct)) {
        console.log(
          `  ✗ [${o.item.category}] "${o.item.text}"${o.item.previous ? ` (after ${o.item.previous})` : ''} → ` +
            `${o.asked ? 'asked' : o.agents.join('+')}${o.question ? ' + question' : ''}, want ${o.item.expect.join('+') || 'a question'}`,
        );
      }
    }
  }

  // Decision latency among many agents: the labelled set's agents padded with thin cards, on a
  // new planner whose cards are embedded (its first decision) but no request is yet.
  const many = [...agents, ...distractorAgents(opts.agents - agents.length)];
  const fresh = await planner(config);
  const started = process.hrtime.bigint();
  await fresh.plan('hello there', { conversationId: 'warm-up', agentThreads: {}, history: [] }, many);
  const cardsMs = Number(process.hrtime.bigint() - started) / 1e6;
  const measured = await evaluate(fresh, all, many);
  const byEvidence = (semantic: boolean) =>
    latencyStats(measured.filter((o) => o.semantic === semantic).map((o) => o.ms));
  const lexical = byEvidence(false);
  const semantic = byEvidence(true);
  console.log(
    `\nDecision latency with ${many.length} agents (${measured.length} decisions, each request embedded anew; ` +
      `embedding the cards first took ${Math.round(cardsMs)} ms):`,
  );
  console.log(
    `  card words decided:   ${measured.filter((o) => !o.semantic).length} decisions, p50 ${lexical.p50.toFixed(3)} ms, p99 ${lexical.p99.toFixed(3)} ms`,
  );
  console.log(
    `  model consulted:      ${measured.filter((o) => o.semantic).length} decisions, p50 ${semantic.p50.toFixed(3)} ms, p99 ${semantic.p99.toFixed(3)} ms`,
  );
  const targets = judge(results.holdout, lexical.p99, semantic.p99);
  if (targets.length) console.log(`\nTargets (holdout):\n${targets.map((t) => `  ${t}`).join('\n')}`);

  const dir = join(PROJECT_ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `routing-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    JSON.stringify({ options: opts, model: plan.encoder.status, results, latency: { lexical, semantic } }, null, 2),
  );
  console.log(`\nResults: ${file}`);
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
