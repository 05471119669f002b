/**
 * What one statement asserts that another could contradict: its quantities (see
 * quantities.ts), the name it says was chosen for a role, and the words it negates. Pure
 * text reading; whether two statements are about the same subject is the detector's business.
 */
import { type Analyse, isNumberWord, type Quantity, QUANTITY_WORDS, quantities } from "./quantities.ts"

export interface Choice {
  /** The chosen name's folded words. */
  readonly name: ReadonlyArray<string>
  /** The name as written. */
  readonly label: string
  /** Content terms of the role the name was chosen for. */
  readonly role: ReadonlySet<string>
}

export interface Negation {
  /** The content term the cue governs (`store` in "never stores"). */
  readonly term: string
  /** `never stores`. */
  readonly label: string
}

export interface Clashes {
  readonly measures: ReadonlyArray<Quantity>
  readonly counts: ReadonlyArray<Quantity>
  readonly choice: Choice | null
  readonly negations: ReadonlyArray<Negation>
  /** Some negation cue occurs (governed or not): such a statement never plays the affirmative side. */
  readonly negated: boolean
  /** A condition (`unless`, `if`, `only`…) qualifies the statement, so its polarity is not absolute. */
  readonly conditional: boolean
}

// ---- vocabulary -------------------------------------------------------------------------------

const NEGATION_CUES = new Set(["never", "not", "no", "none", "nothing", "neither", "nor", "cannot"])
/** Words between a cue and what it negates that are not what it negates. */
const CUE_FILLER = new Set(["ever", "longer", "be", "been", "being", "yet", "even", "always", "also", "get", "got"])
const CONDITIONS = new Set(["unless", "except", "if", "until", "when", "whenever", "only", "without", "otherwise"])

/**
 * Words that are never a statement's subject: units, number words, negation cues, conditions,
 * copulas. The detector drops them from term sets, so `24 hours` and `one hour` share no term by
 * their units.
 */
export const CLASH_WORDS: ReadonlyArray<string> = [
  ...QUANTITY_WORDS, ...NEGATION_CUES, ...CUE_FILLER, ...CONDITIONS, "is", "are", "was", "were", "remains"
]

// ---- choices ----------------------------------------------------------------------------------

const NAME_TOKEN = String.raw`[\p{L}\p{N}][\p{L}\p{N}._+#/-]*`
const NAME_RUN = String.raw`(${NAME_TOKEN}(?:\s+${NAME_TOKEN}){0,2})`
const ROLE_ADJECTIVES = "default|primary|main|preferred|standard|only|single|official|canonical|chosen|current"
const CHOSEN_VERBS =
  String.raw`use|chose|choose|picked|pick|selected|select|prefer|preferred|standardi[sz]ed\s+on|settled\s+on|switched\s+to|moved\s+to|migrated\s+to|went\s+with|adopted|adopt|rely\s+on|run`

/** `Kafka is our queue`, `Kafka is the default queue`. */
const NAME_IS_ROLE = new RegExp(
  String.raw`${NAME_RUN}\s+(?:is|are|was|remains)\s+(?:now\s+|still\s+|currently\s+)?(?:our\s+|the\s+(?=(?:${ROLE_ADJECTIVES})\b))([^.;:!?,]+)`,
  "iu"
)
/** `Kafka is the queue we use`. */
const NAME_IS_ROLE_WE_USE = new RegExp(
  String.raw`${NAME_RUN}\s+(?:is|are|was)\s+the\s+([^.;:!?,]+?)\s+(?:that\s+)?we\s+(?:${CHOSEN_VERBS})\b`,
  "iu"
)
/** `We use Kafka for order events`, `we chose Kafka over RabbitMQ`. */
const WE_CHOSE = new RegExp(
  String.raw`\bwe\s+(?:now\s+|currently\s+|still\s+|have\s+|had\s+|will\s+|always\s+)?(?:${CHOSEN_VERBS})\s+(?:the\s+|an?\s+)?([^.;:!?,]+)`,
  "iu"
)
/** `Kafka was chosen for order events`. */
const NAME_WAS_CHOSEN = new RegExp(
  String.raw`${NAME_RUN}\s+(?:is|are|was|were|has\s+been|have\s+been)\s+(?:now\s+)?(?:chosen|selected|picked|adopted|used|preferred)\s+(?:for|as)\s+([^.;:!?,]+)`,
  "iu"
)

const CHOICE_PATTERNS: ReadonlyArray<readonly [RegExp, RegExp]> = [
  [/\bwe\b/iu, NAME_IS_ROLE_WE_USE],
  [/\b(?:is|are|was|remains)\s+(?:now\s+|still\s+|currently\s+)?(?:our|the)\s/iu, NAME_IS_ROLE],
  [/\b(?:chosen|selected|picked|adopted|used|preferred)\s+(?:for|as)\s/iu, NAME_WAS_CHOSEN]
]

/** Words a chosen name stops at when read forwards. */
const NAME_STOPS = new Set(["for", "as", "to", "in", "on", "over", "instead", "because", "with", "and", "or", "since", "across"])

const contentTerms = (text: string, analyse: Analyse): Set<string> => {
  const out = new Set<string>()
  for (const m of text.matchAll(/\p{L}[\p{L}\p{N}]*/gu)) {
    const term = analyse(m[0].toLowerCase())
    if (term !== undefined) out.add(term)
  }
  return out
}

/** The trailing words of `run` that are not stopwords: `decided that Kafka` names `Kafka`. */
const trailingName = (run: string, analyse: Analyse): Array<string> => {
  const tokens = run.split(/\s+/u)
  const kept: Array<string> = []
  for (let k = tokens.length - 1; k >= 0; k--) {
    const token = tokens[k]!
    if (analyse(token.toLowerCase()) === undefined) break
    kept.unshift(token)
  }
  return kept
}

/** The leading words of `rest` up to the first stopword or preposition, at most three. */
const leadingName = (rest: string, analyse: Analyse): Array<string> => {
  const kept: Array<string> = []
  for (const token of rest.trim().split(/\s+/u)) {
    const lower = token.toLowerCase()
    if (kept.length === 3 || NAME_STOPS.has(lower) || analyse(lower) === undefined) break
    kept.push(token)
  }
  return kept
}

const makeChoice = (name: ReadonlyArray<string>, role: ReadonlySet<string>): Choice | null => {
  if (name.length === 0 || role.size === 0 || /^\d/.test(name[0]!) || isNumberWord(name[0]!)) return null
  return { name: name.map((w) => w.toLowerCase()), label: name.join(" "), role }
}

/** The name a statement says was chosen, and for what; the first pattern that reads one wins. */
const choiceOf = (text: string, analyse: Analyse): Choice | null => {
  for (const [guard, pattern] of CHOICE_PATTERNS) {
    // The guard is one cheap scan; the full pattern backtracks over the words before the verb.
    if (!guard.test(text)) continue
    const m = pattern.exec(text)
    if (m === null) continue
    const choice = makeChoice(trailingName(m[1]!, analyse), contentTerms(m[2]!, analyse))
    if (choice !== null) return choice
  }
  const m = /\bwe\b/iu.test(text) ? WE_CHOSE.exec(text) : null
  if (m === null) return null
  const name = leadingName(m[1]!, analyse)
  const nameTerms = new Set(name.map((w) => analyse(w.toLowerCase())))
  const role = new Set([...contentTerms(text, analyse)].filter((term) => !nameTerms.has(term)))
  return makeChoice(name, role)
}

/** Whether two names are the same choice: equal, or one is the other with a qualifier (`SQS`, `Amazon SQS`). */
export const sameName = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean => {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a]
  return short.every((word) => long.includes(word))
}

// ---- polarity ---------------------------------------------------------------------------------

/** Negations and their governed terms, read from the statement's folded words. */
const polarityOf = (
  folded: ReadonlyArray<string>,
  analyse: Analyse
): { negations: Array<Negation>; negated: boolean; conditional: boolean } => {
  const negations: Array<Negation> = []
  let negated = false
  for (let k = 0; k < folded.length; k++) {
    const word = folded[k]!
    if (!NEGATION_CUES.has(word) || (word === "not" && folded[k + 1] === "only")) continue
    negated = true
    for (let g = k + 1; g < Math.min(folded.length, k + 5); g++) {
      const next = folded[g]!
      if (NEGATION_CUES.has(next)) break
      if (CUE_FILLER.has(next)) continue
      const term = analyse(next)
      if (term === undefined) continue
      negations.push({ term, label: `${word} ${next}` })
      break
    }
  }
  return { negations, negated, conditional: folded.some((word) => CONDITIONS.has(word)) }
}

// ---- the whole reading ------------------------------------------------------------------------

/** Everything `text` asserts that could clash; `folded` is its folded word sequence. */
export const readClashes = (text: string, folded: ReadonlyArray<string>, analyse: Analyse): Clashes => {
  const { measures, counts } = quantities(text, analyse)
  return { measures, counts, choice: choiceOf(text, analyse), ...polarityOf(folded, analyse) }
}
