/**
 * What `cairn index` shows on standard error while it works. On a terminal, one line redrawn in
 * place with a bar, at most once per percent; otherwise plain lines, one when a step starts and
 * one at each tenth of a long step, so a log shows the run moving without a line per file. A scan
 * of fewer than `LONG_SCAN_FILES` files says nothing of itself: it ends before a line would help.
 */
import type { IndexProgress } from "../indexRepository.ts"
import { LONG_SCAN_FILES } from "./Progress.ts"

interface Step {
  /** Names the step; a new name starts a new line. */
  readonly name: string
  readonly text: string
  readonly done: number
  readonly total: number
}

const BAR_WIDTH = 24

const SCAN_STEPS: Record<Extract<IndexProgress, { _tag: "Scanning" }>["phase"], string> = {
  listing: "listing files",
  configuration: "reading configuration",
  modules: "scanning modules",
  documents: "scanning documents",
  assembling: "assembling the snapshot"
}

const stepOf = (event: IndexProgress): Step | undefined => {
  switch (event._tag) {
    case "Scanning":
      return event.total < LONG_SCAN_FILES ? undefined : {
        name: SCAN_STEPS[event.phase],
        text: `cairn: ${SCAN_STEPS[event.phase]}, ${event.done}/${event.total} files`,
        done: event.done,
        total: event.total
      }
    case "Discovered":
      return { name: "discovered", text: `cairn: ${event.files} files to index`, done: 0, total: 0 }
    case "Chunked":
      return { name: "chunking", text: `cairn: chunked ${event.done}/${event.total} changed files`, done: event.done, total: event.total }
    case "Writing":
      return { name: "writing", text: `cairn: writing ${event.chunks} chunks`, done: 0, total: 0 }
    case "Training":
      return { name: "training", text: `cairn: training the embedder on ${event.chunks} chunks`, done: 0, total: 0 }
    case "Embedding":
      return event.done === undefined
        ? { name: "embedding", text: `cairn: embedding ${event.chunks} chunks`, done: 0, total: 0 }
        : { name: "embedding", text: `cairn: embedded ${event.done}/${event.chunks} chunks`, done: event.done, total: event.chunks }
    case "Written":
      return { name: "written", text: "cairn: written", done: 0, total: 0 }
  }
}

const fraction = (step: Step): number => (step.total === 0 ? 1 : Math.min(1, step.done / step.total))

const bar = (step: Step): string => {
  if (step.total === 0) return ""
  const filled = Math.round(fraction(step) * BAR_WIDTH)
  return ` [${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}] ${Math.floor(fraction(step) * 100)}%`
}

export interface IndexProgressView {
  /** The text to write for `event`, or undefined when nothing new is worth showing. */
  readonly next: (event: IndexProgress) => string | undefined
  /** The text that ends the display, once the run is over. */
  readonly finish: () => string | undefined
}

export const indexProgressView = (terminal: boolean): IndexProgressView => {
  let name = ""
  let shown = -1
  let drawn = false
  return {
    next: (event) => {
      const step = stepOf(event)
      if (step === undefined) return undefined
      const started = step.name !== name
      name = step.name
      // Percent steps on a terminal, tenths in a log.
      const mark = Math.floor(fraction(step) * (terminal ? 100 : 10))
      if (!started && mark === shown) return undefined
      shown = mark
      if (!terminal) return `${step.text}\n`
      drawn = true
      return `\r${step.text}${bar(step)}\u001b[K`
    },
    finish: () => (drawn ? "\n" : undefined)
  }
}
