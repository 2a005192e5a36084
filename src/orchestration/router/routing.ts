import type { AgentChoiceResult } from '../orchestration.types';

/**
 * What every router of the orchestrator - the built-in one (DefaultRouter, SemanticStage,
 * actions) and the LLM one - is asked, and what it answers.
 */
export interface RoutingRequest {
  /** The user's own words (the Home Assistant prompt already removed). */
  text: string;
  /** The agent that answered the conversation's previous turn, if any. */
  previousAgentId?: string;
  /** Route multi-intent requests to several agents. */
  multiAgent: boolean;
}

export interface Routing extends AgentChoiceResult {
  /** The agents worth naming when asking the user which one is meant, best first. */
  candidates: string[];
  /** The part of the request each chosen agent should handle, when the request was split. */
  parts?: Record<string, string>;
  /**
   * Clauses of a split request that no agent's card matched well enough, each with the agents
   * worth naming when asking about it (best first): the rest runs, and the user is asked these.
   */
  unplaced?: { text: string; candidates: string[] }[];
  /** The request was also compared by meaning (SemanticStage): the sentence-embedding model was consulted. */
  semantic?: boolean;
  /**
   * How many of the request's specific (not generic) terms saying what is asked - not which one
   * ("when do the Yankees play *next*") - the chosen agent's card has (unsplit requests).
   */
  evidenceTerms?: number;
  /** How many words saying what is asked (saysWhat) the chosen agent's card does not have (unsplit requests). */
  otherTerms?: number;
  /** A term of the request is in the chosen agent's name (unsplit requests). */
  namesAgent?: boolean;
  /**
   * The request is a command the chosen agent's card takes (Ranking.commanded: "turn off the tv
   * *plug*"), so the words it lacks say which one, not what is asked (unsplit requests).
   */
  commandsAgent?: boolean;
  /**
   * The chosen agent's card has the request's strong words only as part of tags of two words or
   * more ("set the *heating* to 20" beside a car's "seat heating" tag): what the card does with
   * them may be another thing (unsplit requests).
   */
  partOfTags?: boolean;
  /**
   * A clause of the split request went to its agent on one card word beside words that card does
   * not have (ClauseVerdict.oneWordAmongOthers): the split is not decided by the words alone.
   */
  tentative?: boolean;
  /** The request was taken as part of the conversation because it refers back to it ("turn *it* off"). */
  refersBack?: boolean;
  /**
   * …because it only adjusts what is going on ("louder", "pause it") or does something to it,
   * another card's only word its verb ("close it again" after the garage door): it stays whatever
   * the model says.
   */
  adjusts?: boolean;
  /**
   * The request clearly belongs to an everyday domain no hosted agent serves (SemanticStage): it
   * is asked about, even in a conversation, rather than handed to the conversation's agent.
   */
  outOfScope?: string;
  /**
   * In a conversation, the request is undecided but a request of its own, nothing its agent can
   * take up (SemanticStage): it is asked about rather than left to the conversation's agent.
   */
  standsAlone?: boolean;
}
