/** Accuracy per category and overall, clarification precision and recall, wrong-agent rate. */
import { Category, CATEGORIES } from './labelled-set';
import type { RoutingOutcome } from './planner';

export interface CategoryScores {
  n: number;
  accuracy: number;
  /** Turns of the category that sent some part to an agent not in the label. */
  wrongAgentRate: number;
  /** Turns of the category answered with a clarifying question alone. */
  asked: number;
}

export interface Scores {
  overall: number;
  byCategory: Partial<Record<Category, CategoryScores>>;
  /** Questions asked when one was expected, of all questions; of the expected questions, those asked. */
  clarification: { asked: number; precision: number; recall: number };
  /** Turns that sent some part to an agent that should not have it. */
  wrongAgentRate: number;
  /** Second turns of conversations; how many followed a first turn not routed as labelled, and of those how many were wrong. */
  conversations: { n: number; firstTurnOff: number; wrongAfterFirstTurnOff: number };
}

const share = (part: number, whole: number) => (whole ? part / whole : NaN);

export function score(outcomes: RoutingOutcome[]): Scores {
  const byCategory: Scores['byCategory'] = {};
  for (const category of CATEGORIES) {
    const of = outcomes.filter((o) => o.item.category === category);
    if (!of.length) continue;
    byCategory[category] = {
      n: of.length,
      accuracy: share(of.filter((o) => o.correct).length, of.length),
      wrongAgentRate: share(of.filter((o) => o.wrongAgent).length, of.length),
      asked: of.filter((o) => o.asked).length,
    };
  }
  const asked = outcomes.filter((o) => o.asked);
  const expected = outcomes.filter((o) => o.item.expect.length === 0);
  const conversations = outcomes.filter((o) => o.firstTurnAsLabelled !== undefined);
  const firstTurnOff = conversations.filter((o) => o.firstTurnAsLabelled === false);
  return {
    overall: share(outcomes.filter((o) => o.correct).length, outcomes.length),
    byCategory,
    clarification: {
      asked: asked.length,
      precision: share(asked.filter((o) => o.item.expect.length === 0).length, asked.length),
      recall: share(expected.filter((o) => o.asked).length, expected.length),
    },
    wrongAgentRate: share(outcomes.filter((o) => o.wrongAgent).length, outcomes.length),
    conversations: {
      n: conversations.length,
      firstTurnOff: firstTurnOff.length,
      wrongAfterFirstTurnOff: firstTurnOff.filter((o) => !o.correct).length,
    },
  };
}

export const pct = (x: number) => (Number.isNaN(x) ? '-' : `${(x * 100).toFixed(1)} %`);

/** One markdown table: per category (and overall) for each split side by side, then the clarification rows. */
export function formatScores(results: Partial<Record<string, Scores>>): string {
  const splits = Object.keys(results).filter((s) => results[s]);
  const head = ['category', ...splits.flatMap((s) => [`${s} n`, `${s} right`, `${s} wrong agent`, `${s} asked`])];
  const lines = [
    `| ${head.join(' | ')} |`,
    `|---|${head
      .slice(1)
      .map(() => '---:')
      .join('|')}|`,
  ];
  for (const category of CATEGORIES) {
    const cells = splits.flatMap((s) => {
      const c = results[s]!.byCategory[category];
      return c ? [String(c.n), pct(c.accuracy), pct(c.wrongAgentRate), String(c.asked)] : ['0', '-', '-', '-'];
    });
    lines.push(`| ${category} | ${cells.join(' | ')} |`);
  }
  const overall = splits.flatMap((s) => {
    const r = results[s]!;
    const n = Object.values(r.byCategory).reduce((sum, c) => sum + c.n, 0);
    return [String(n), `**${pct(r.overall)}**`, pct(r.wrongAgentRate), String(r.clarification.asked)];
  });
  lines.push(`| **overall** | ${overall.join(' | ')} |`, '');
  lines.push(`| clarification | ${splits.map((s) => s).join(' | ')} |`, `|---|${splits.map(() => '---:').join('|')}|`);
  lines.push(`| precision | ${splits.map((s) => pct(results[s]!.clarification.precision)).join(' | ')} |`);
  lines.push(`| recall | ${splits.map((s) => pct(results[s]!.clarification.recall)).join(' | ')} |`);
  lines.push(`| wrong-agent rate | ${splits.map((s) => pct(results[s]!.wrongAgentRate)).join(' | ')} |`);
  lines.push(
    `| conversations: first turn routed otherwise | ${splits
      .map((s) => `${results[s]!.conversations.firstTurnOff} of ${results[s]!.conversations.n}`)
      .join(' | ')} |`,
  );
  lines.push(
    `| … and the second turn wrong | ${splits.map((s) => String(results[s]!.conversations.wrongAfterFirstTurnOff)).join(' | ')} |`,
  );
  return lines.join('\n');
}
