/**
 * The blog's storage on Deno KV: messages, their comments and the one account.
 *
 * Keys:
 *
 * | key                                  | value      |
 * | ------------------------------------ | ---------- |
 * | `["messages", id]`                   | `Message`  |
 * | `["comments", messageId, commentId]` | `Comment`  |
 * | `["account"]`                        | `Account`  |
 * | `["counters", "messages"]`           | last message id |
 * | `["counters", "comments"]`           | last comment id |
 *
 * Ids come from a counter that is read and bumped in the same atomic commit that writes
 * the record, with a check on the counter's versionstamp: when two requests race, one
 * commit fails its check and retries with the new counter, so ids never collide and no
 * write is lost. Updates are read-modify-write with the same check on the record.
 * @module
 */

/** A blog message. */
export interface Message {
  /** Positive integer id, from the message counter. */
  id: number;
  /** The title (required, at most {@linkcode LIMITS.title} characters). */
  title: string;
  /** The text; newlines are kept. */
  body: string;
  /** Whether the message has been published (the custom member action). */
  published: boolean;
  /** ISO time of creation. */
  createdAt: string;
  /** ISO time of the last change. */
  updatedAt: string;
  /** ISO time of publication, or `null` while a draft. */
  publishedAt: string | null;
}

/** A comment on a message. */
export interface Comment {
  /** Positive integer id, from the comment counter (unique across messages). */
  id: number;
  /** The message it belongs to. */
  messageId: number;
  /** Who wrote it; `"Anonymous"` when left empty. */
  author: string;
  /** The text (required). */
  body: string;
  /** ISO time of creation. */
  createdAt: string;
}

/** The singleton account of the blog's owner. */
export interface Account {
  /** Display name. */
  name: string;
  /** E-mail address (not validated beyond its length). */
  email: string;
  /** A short text about the owner. */
  bio: string;
}

/** What a form may set on a message. */
export interface MessageInput {
  /** The title. */
  title: string;
  /** The text. */
  body: string;
}

/** What a form may set on a comment. */
export interface CommentInput {
  /** Who wrote it. */
  author: string;
  /** The text. */
  body: string;
}

/** Field length limits, in characters. */
export const LIMITS = {
  title: 200,
  body: 10_000,
  author: 100,
  name: 100,
  email: 200,
  bio: 2_000,
} as const;

/** Field name to error message; empty when the input is valid. */
export type Errors = Record<string, string>;

/** The account before anyone has edited it. */
export const DEFAULT_ACCOUNT: Account = { name: "Blog owner", email: "", bio: "" };

/** How often a conflicting atomic commit is retried before giving up. */
const MAX_ATTEMPTS = 100;

/** Checks a message form; returns the errors by field. */
export function validateMessage(input: MessageInput): Errors {
  const errors: Errors = {};
  if (input.title.trim() === "") errors.title = "Title can't be blank";
  else if (input.title.length > LIMITS.title) {
    errors.title = `Title is longer than ${LIMITS.title} characters`;
  }
  if (input.body.length > LIMITS.body) {
    errors.body = `Text is longer than ${LIMITS.body} characters`;
  }
  return errors;
}

/** Checks a comment form; returns the errors by field. */
export function validateComment(input: CommentInput): Errors {
  const errors: Errors = {};
  if (input.body.trim() === "") errors.body = "Comment can't be blank";
  else if (input.body.length > LIMITS.body) {
    errors.body = `Comment is longer than ${LIMITS.body} characters`;
  }
  if (input.author.length > LIMITS.author) {
    errors.author = `Name is longer than ${LIMITS.author} characters`;
  }
  return errors;
}

/** Checks an account form; returns the errors by field. */
export function validateAccount(input: Account): Errors {
  const errors: Errors = {};
  if (input.name.trim() === "") errors.name = "Name can't be blank";
  else if (input.name.length > LIMITS.name) {
    errors.name = `Name is longer than ${LIMITS.name} characters`;
  }
  if (input.email.length > LIMITS.email) {
    errors.email = `E-mail is longer than ${LIMITS.email} characters`;
  }
  if (input.bio.length > LIMITS.bio) errors.bio = `Bio is longer than ${LIMITS.bio} characters`;
  return errors;
}

/**
 * The blog's records in a `Deno.Kv`. Callers validate input first; the store only
 * stores it.
 */
export class BlogStore {
  readonly #kv: Deno.Kv;
  readonly #now: () => Date;
  /** The tail of this process's inserts, which take turns (see `#insert`). */
  #inserts: Promise<unknown> = Promise.resolve();

  /** Wraps an open KV; `now` is the clock (for tests). */
  constructor(kv: Deno.Kv, now: () => Date = () => new Date()) {
    this.#kv = kv;
    this.#now = now;
  }

  /** Every message, newest first. */
  async listMessages(): Promise<Message[]> {
    const messages: Message[] = [];
    for await (const entry of this.#kv.list<Message>({ prefix: ["messages"] }, { reverse: true })) {
      messages.push(entry.value);
    }
    return messages;
  }

  /** One message, or `null`. */
  async getMessage(id: number): Promise<Message | null> {
    return (await this.#kv.get<Message>(["messages", id])).value;
  }

  /** Creates a message under a fresh id. */
  createMessage(input: MessageInput): Promise<Message> {
    const time = this.#now().toISOString();
    return this.#insert("messages", (id) => ({
      key: ["messages", id],
      value: {
        id,
        title: input.title,
        body: input.body,
        published: false,
        createdAt: time,
        updatedAt: time,
        publishedAt: null,
      },
    }));
  }

  /** Changes title and text; `null` when the message does not exist. */
  updateMessage(id: number, input: MessageInput): Promise<Message | null> {
    return this.#change(id, (message) => ({
      ...message,
      title: input.title,
      body: input.body,
      updatedAt: this.#now().toISOString(),
    }));
  }

  /** Publishes a message (again publishing keeps the first time); `null` when missing. */
  publishMessage(id: number): Promise<Message | null> {
    return this.#change(id, (message) => {
      const time = this.#now().toISOString();
      return { ...message, published: true, publishedAt: message.publishedAt ?? time };
    });
  }

  /** Deletes a message and its comments; `false` when it did not exist. */
  async deleteMessage(id: number): Promise<boolean> {
    const key = ["messages", id];
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const entry = await this.#kv.get<Message>(key);
      if (entry.versionstamp === null) return false;
      const result = await this.#kv.atomic().check(entry).delete(key).commit();
      if (!result.ok) continue;
      // The message is gone, so addComment (which checks it) can add nothing more here.
      await this.#deletePrefix(["comments", id]);
      return true;
    }
    throw new Error(`Deleting message ${id} kept conflicting; try again`);
  }

  /** The comments of a message, oldest first. */
  async listComments(messageId: number): Promise<Comment[]> {
    const comments: Comment[] = [];
    for await (const entry of this.#kv.list<Comment>({ prefix: ["comments", messageId] })) {
      comments.push(entry.value);
    }
    return comments;
  }

  /** Adds a comment to a message; `null` when the message does not exist. */
  addComment(messageId: number, input: CommentInput): Promise<Comment | null> {
    return this.#inTurn(() => this.#addComment(messageId, input));
  }

  async #addComment(messageId: number, input: CommentInput): Promise<Comment | null> {
    const messageKey = ["messages", messageId];
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const message = await this.#kv.get<Message>(messageKey);
      if (message.versionstamp === null) return null;
      const comment = await this.#tryInsert("comments", (id) => ({
        key: ["comments", messageId, id],
        value: {
          id,
          messageId,
          author: input.author.trim() === "" ? "Anonymous" : input.author,
          body: input.body,
          createdAt: this.#now().toISOString(),
        },
      }), message);
      if (comment !== null) return comment;
    }
    throw new Error(`Adding a comment to message ${messageId} kept conflicting; try again`);
  }

  /** Deletes one comment of a message; `false` when it did not exist. */
  async deleteComment(messageId: number, id: number): Promise<boolean> {
    const key = ["comments", messageId, id];
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const entry = await this.#kv.get<Comment>(key);
      if (entry.versionstamp === null) return false;
      if ((await this.#kv.atomic().check(entry).delete(key).commit()).ok) return true;
    }
    throw new Error(`Deleting comment ${id} kept conflicting; try again`);
  }

  /** The account ({@linkcode DEFAULT_ACCOUNT} until first saved). */
  async getAccount(): Promise<Account> {
    return (await this.#kv.get<Account>(["account"])).value ?? { ...DEFAULT_ACCOUNT };
  }

  /** Saves the account. */
  async updateAccount(input: Account): Promise<Account> {
    const account = { name: input.name, email: input.email, bio: input.bio };
    await this.#kv.set(["account"], account);
    return account;
  }

  /**
   * Inserts a record under the next id of `counter`. Inserts of this process take turns
   * (every insert bumps the same counter, so letting a hundred race only makes them
   * retry each other); the atomic check still guards against other processes.
   */
  #insert<T>(counter: string, build: (id: number) => Insert<T>): Promise<T> {
    return this.#inTurn(async () => {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const value = await this.#tryInsert(counter, build);
        if (value !== null) return value;
      }
      throw new Error(`Creating a record in ${counter} kept conflicting; try again`);
    });
  }

  /** Runs `work` after every insert this process started before it. */
  #inTurn<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.#inserts.then(work);
    this.#inserts = turn.catch(() => {});
    return turn;
  }

  /**
   * One attempt: reads the counter, then in one atomic commit checks that the counter
   * (and `also`, when given) did not change and the new key is free, bumps the counter
   * and writes the record. `null` when another writer got there first.
   */
  async #tryInsert<T>(
    counter: string,
    build: (id: number) => Insert<T>,
    also?: Deno.AtomicCheck,
  ): Promise<T | null> {
    const counterKey = ["counters", counter];
    const current = await this.#kv.get<number>(counterKey);
    const id = (current.value ?? 0) + 1;
    const { key, value } = build(id);
    let operation = this.#kv.atomic()
      .check(current)
      .check({ key, versionstamp: null })
      .set(counterKey, id)
      .set(key, value);
    if (also !== undefined) operation = operation.check(also);
    const result = await operation.commit();
    return result.ok ? value : null;
  }

  /** Read-modify-write of a message with a versionstamp check, retried on conflicts. */
  async #change(id: number, change: (message: Message) => Message): Promise<Message | null> {
    const key = ["messages", id];
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const entry = await this.#kv.get<Message>(key);
      if (entry.value === null) return null;
      const changed = change(entry.value);
      if ((await this.#kv.atomic().check(entry).set(key, changed).commit()).ok) return changed;
    }
    throw new Error(`Changing message ${id} kept conflicting; try again`);
  }

  /** Deletes every key under a prefix, in batches that fit one atomic commit. */
  async #deletePrefix(prefix: Deno.KvKey): Promise<void> {
    let batch = this.#kv.atomic();
    let size = 0;
    for await (const entry of this.#kv.list({ prefix })) {
      batch = batch.delete(entry.key);
      if (++size === 500) {
        await batch.commit();
        batch = this.#kv.atomic();
        size = 0;
      }
    }
    if (size > 0) await batch.commit();
  }
}

/** A record to insert and its key. */
interface Insert<T> {
  key: Deno.KvKey;
  value: T;
}
