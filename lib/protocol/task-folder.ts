import { z } from 'zod';
import { SimPolicyIdSchema } from './config';

/**
 * A task folder (docs/tasks.md): task.md, workspace/, tests/, hidden/ and an optional task.json.
 * This file holds task.json's schema, the answer scorers it may name, the limits every folder
 * is held to, and the scorer results a task verdict carries. The loader is lib/tools/tasks.
 */

export { TASK_LIMITS } from './task-limits';

/** A path inside the workspace: relative, "/"-separated, no "." or ".." segment. */
const RelativePathSchema = z
  .string()
  .min(1)
  .max(500)
  .refine(
    (p) =>
      !p.startsWith('/') &&
      !p.includes('\\') &&
      p.split('/').every((s) => s !== '' && s !== '.' && s !== '..'),
    'a relative path inside the workspace, "/"-separated, without "." or ".." (e.g. "src/index.js")',
  );

const ScorerIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'use lower-case letters, digits, "-" or "_" (it names a sweep column)');

/** The final answer contains this text. */
const ContainsScorerSchema = z
  .object({
    kind: z.literal('contains'),
    id: ScorerIdSchema.optional(),
    text: z.string().min(1).max(2_000),
    ignoreCase: z.boolean().default(false),
  })
  .strict();

/** The final answer matches this regular expression (JavaScript syntax). */
const RegexScorerSchema = z
  .object({
    kind: z.literal('regex'),
    id: ScorerIdSchema.optional(),
    pattern: z
      .string()
      .min(1)
      .max(2_000)
      .refine((p) => {
        try {
          new RegExp(p);
          return true;
        } catch {
          return false;
        }
      }, 'not a valid JavaScript regular expression'),
    flags: z
      .string()
      .regex(/^[imsu]*$/, 'flags are any of i, m, s, u')
      .default(''),
  })
  .strict();

/**
 * The final answer is JSON (alone, or in a ```json fence) that a JSON Schema accepts: the
 * schema is read with zod's z.fromJSONSchema, so a schema it cannot read is refused here.
 */
const JsonSchemaScorerSchema = z
  .object({
    kind: z.literal('json_schema'),
    id: ScorerIdSchema.optional(),
    schema: z.record(z.string(), z.unknown()).superRefine((schema, ctx) => {
      try {
        z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: `zod cannot read this JSON Schema: ${error instanceof Error ? error.message : String(error)}`,
        });
      }
    }),
  })
  .strict();

export const AnswerScorerSchema = z.discriminatedUnion('kind', [
  ContainsScorerSchema,
  RegexScorerSchema,
  JsonSchemaScorerSchema,
]);
export type AnswerScorer = z.infer<typeof AnswerScorerSchema>;

/** Test names by file (the file's path inside tests/ or hidden/). */
const TestNamesSchema = z.record(RelativePathSchema, z.array(z.string().min(1).max(500)).min(1).max(1_000));

/** task.json: everything optional. */
export const TaskFileSchema = z
  .object({
    /** The task's id; absent: the folder's name. */
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'lower-case letters, digits and "-", at most 64')
      .optional(),
    title: z.string().min(1).max(200).optional(),
    /** One line for pickers; absent: the title. */
    summary: z.string().min(1).max(500).optional(),
    /** The simulated model's policy; absent: worker. */
    policy: SimPolicyIdSchema.optional(),
    /** Where tests/ sits in the workspace; absent: "tests". Hidden tests sit beside it, in .hidden-tests/. */
    testsDir: RelativePathSchema.optional(),
    /**
     * Every test each visible test file registers, by name: the verdict requires each to run and
     * pass. A file not listed passes when at least one of its tests ran and none failed.
     */
    tests: TestNamesSchema.optional(),
    /** The same for hidden/. */
    hidden: TestNamesSchema.optional(),
    /** Checks on the final answer (the model's last text), each a scorer of the verdict. */
    scorers: z.array(AnswerScorerSchema).max(20).optional(),
    /** What the simulated worker follows to do the work (docs/tasks.md). */
    hints: z
      .object({
        /** Workspace files to read, in order. */
        read: z.array(RelativePathSchema).max(200).default([]),
        search: z.string().min(1).max(500).optional(),
        /** The fix: replace `find` with `replace` in `path`. */
        fix: z
          .object({ path: RelativePathSchema, find: z.string().min(1), replace: z.string() })
          .strict()
          .optional(),
        /** The final answer. */
        summary: z.string().min(1).max(20_000),
      })
      .strict()
      .optional(),
  })
  .strict();
export type TaskFile = z.infer<typeof TaskFileSchema>;

/** The id a task folder's path gives when its task.json names none: its last segment. */
export function taskDirName(dir: string): string {
  return (
    dir
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .pop() ?? dir
  );
}

/**
 * One scorer's result in a task verdict: the visible tests, the hidden tests, or a check on the
 * final answer. `passed` null: it could not give an answer (its check was stopped, or there was
 * no final answer to score); `reason` says what it found.
 */
export const ScorerResultSchema = z.object({
  id: z.string(),
  /** mechanism: a mechanism module's own check on the run (its port's `judge`), beside the task's. */
  kind: z.enum(['visible_tests', 'hidden_tests', 'contains', 'regex', 'json_schema', 'mechanism']),
  passed: z.boolean().nullable(),
  reason: z.string(),
});
export type ScorerResult = z.infer<typeof ScorerResultSchema>;
