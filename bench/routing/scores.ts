/** Accuracy per category and overall, clarification precision and recall, wrong-agent rate. */
import { Category, CATEGORIES } from './labelled-set';
import type { RoutingOutcome } from './planner';

export interface Scores {
  overall: number;
  byCategory: Partial<Record<Category, { n: number; accuracy: number }>>;
  /** Questions asked when one was expected, of all questions; of the expected questions, those asked. */
  clarification: { asked: number; precision: number; recall: number };
  /** Turns that sent some part to an agent that should not have it. */
  wrongAgentRate: number;
}

export function score(outcomes: RoutingOutcome[]): Scores {
  const share = (part: number, whole: number) => (whole ? part / whole : NaN);
  const byCategory: Scores['byCategory'] = {};
  for (const category of CATEGORIES) {
    const of = outcomes.filter((o) => o.item.category === category);
    if (of.length)
      byCategory[category] = { n: of.length, accuracy: share(of.filter((o) => o.correct).length, of.length) };
  }
  const asked = outcomes.filter((o) => o.asked);
  const expected = outcomes.filter((o) => o.item.expect.length === 0);
  return {
    overall: share(outcomes.filter((o) => o.correct).length, outcomes.length),
    byCategory,
    clarification: {
      asked: asked.length,
      precision: share(asked.filter((o) => o.item.expect.length === 0).length, asked.length),
      recall: share(expected.filter((o) => o.asked).length, expected.length),
    },
    wrongAgentRate: share(outcomes.filter((o) => o.wrongAgent).length, outcomes.length),
  };
}

export function formatScores(scores: Scores): string {
  const pct = (x: number) => (Number.isNaN(x) ? '   -' : `${(x * 100).toFixed(1).padStart(5)} %`);
  const lines = ['| category | n | right |', '|---|---:|---:|'];
  for (const [category, s] of Object.entries(scores.byCategory))
    lines.push(`| ${category} | ${s.n} | ${pct(s.accuracy)} |`);
  lines.push(
    `| **overall** | ${Object.values(scores.byCategory).reduce((n, s) => n + s.n, 0)} | ${pct(scores.overall)} |`,
  );
  lines.push(
    '',
    `clarification: ${scores.clarification.asked} questions, precision ${pct(scores.clarification.precision)}, ` +
      `recall ${pct(scores.clarification.recall)}; wrong-agent rate ${pct(scores.wrongAgentRate)}`,
  );
  return lines.join('\n');
}
