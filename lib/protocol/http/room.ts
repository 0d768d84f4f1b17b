import { z } from 'zod';

/** POST /api/room/join: the room code the teacher gives out. */
export const JoinRoomBodySchema = z
  .object({
    code: z
      .string({ error: 'code: the room code, as a string' })
      .min(1, { error: 'code: enter the room code' })
      .max(200),
  })
  .strict();
export type JoinRoomBody = z.infer<typeof JoinRoomBodySchema>;

/**
 * 200 from POST /api/room/join; the session is the cookie it sets. `teacher` when the code was
 * the teacher code (LOOP_LAB_TEACHER_CODE): the session may open the board.
 */
export const JoinedRoomSchema = z.object({ joined: z.literal(true), teacher: z.boolean() }).strict();
export type JoinedRoom = z.infer<typeof JoinedRoomSchema>;

/** POST /api/runs/{id}/share: `{}` makes a link; `{"revoke": true}` ends every link of the run. */
export const ShareRunBodySchema = z
  .object({ revoke: z.literal(true, { error: 'revoke: true ends every share link of the run' }).optional() })
  .strict();

/** 201 from POST /api/runs/{id}/share: the token, shown once (the server keeps only its hash). */
export const SharedLinkSchema = z.object({ token: z.string(), path: z.string() }).strict();
export type SharedLink = z.infer<typeof SharedLinkSchema>;

/** 200 from POST /api/runs/{id}/share with revoke: how many links stopped working. */
export const RevokedSharesSchema = z.object({ revoked: z.number().int() }).strict();

/** POST /api/board/notice: a lesson (its slug) or a run config for every visitor to open. */
export const NoticeBodySchema = z.union(
  [
    z.object({ lesson: z.string().min(1).max(200) }).strict(),
    z.object({ config: z.record(z.string(), z.unknown()) }).strict(),
  ],
  { error: 'send {"lesson": "<slug>"} or {"config": {…a run config…}}' },
);
export type NoticeBody = z.infer<typeof NoticeBodySchema>;

/** What the teacher sent everyone: a lesson to open, or a config to open in the playground. */
export const RoomNoticeSchema = z.discriminatedUnion('kind', [
  z.object({ id: z.number().int(), kind: z.literal('lesson'), slug: z.string(), title: z.string() }).strict(),
  z
    .object({
      id: z.number().int(),
      kind: z.literal('config'),
      config: z.record(z.string(), z.unknown()),
      title: z.string(),
    })
    .strict(),
]);
export type RoomNotice = z.infer<typeof RoomNoticeSchema>;

/** One lesson's tally on the board, counted from the stored runs of its plays. */
export const LessonTallySchema = z
  .object({
    slug: z.string(),
    title: z.string(),
    /** Plays started through the play route. */
    played: z.number().int(),
    /** Plays whose two sides have both ended. */
    ended: z.number().int(),
    /** Plays whose mechanism-on run ended completed. */
    onCompleted: z.number().int(),
    /** Plays whose mechanism-off run ended failed. */
    offFailed: z.number().int(),
    /** Ended plays whose two runs part somewhere (lib/compare's first divergence). */
    diverged: z.number().int(),
  })
  .strict();
export type LessonTally = z.infer<typeof LessonTallySchema>;

/** GET /api/board and each frame of /api/board/events: the room as the teacher sees it. */
export const BoardSchema = z
  .object({
    /** Visitors who joined this server, in the order they joined (the teacher not among them). */
    visitors: z.array(
      z
        .object({
          name: z.string(),
          /** The lesson they played last (null: none yet). */
          lesson: z.string().nullable(),
          /** Their runs the store holds as running. */
          running: z.number().int(),
        })
        .strict(),
    ),
    /** Every visitor's run in flight: its id and whose it is. */
    inFlight: z.array(z.object({ run: z.string(), visitor: z.string() }).strict()),
    /** Every lesson, played or not, in the lessons' order. */
    lessons: z.array(LessonTallySchema),
    /** The last notice sent, if any. */
    notice: RoomNoticeSchema.nullable(),
  })
  .strict();
export type Board = z.infer<typeof BoardSchema>;
