/**
 * Email → user, through the API, in few requests (the default rate limit is 600 a minute): one
 * `GET /users/?email=` per distinct email (cached) when the file names few users, or the whole
 * user list read page by page (100 a page) once when that costs fewer requests.
 */
import type { ApiAnswer, ImportApiClient } from './api-client.ts';
import { StopError } from './api-client.ts';

export interface DirectoryUser {
  public_id: string;
  name: string;
  role: string;
  employee_id: string | null;
}

const PAGE_SIZE = 100;

export class UserDirectory {
  private readonly known = new Map<string, DirectoryUser | null>();
  private preloaded = false;

  private constructor(private readonly client: ImportApiClient) {}

  /** Chooses the cheaper way for `distinctEmails` emails (a lower bound when the scan hit its cap). */
  static async open(client: ImportApiClient, distinctEmails: number): Promise<UserDirectory> {
    const directory = new UserDirectory(client);
    const first = await directory.page(1, 1);
    const pagesForAll = Math.ceil(first.total / PAGE_SIZE);
    if (distinctEmails > pagesForAll) await directory.preload();
    return directory;
  }

  async find(email: string): Promise<DirectoryUser | null> {
    const key = email.toLowerCase();
    const cached = this.known.get(key);
    if (cached !== undefined || this.preloaded) return cached ?? null;
    const answer = await this.client.get(`/api/v2/users/?email=${encodeURIComponent(key)}&page_size=1`);
    expectOk(answer, 'looking up a user by email');
    const user = answer.body.data[0] ? pick(answer.body.data[0]) : null;
    this.known.set(key, user);
    return user;
  }

  private async preload(): Promise<void> {
    for (let page = 1; ; page++) {
      const { users, total } = await this.page(page, PAGE_SIZE);
      for (const [email, user] of users) this.known.set(email, user);
      if (page * PAGE_SIZE >= total || users.length === 0) break;
    }
    this.preloaded = true;
  }

  private async page(page: number, size: number): Promise<{ users: [string, DirectoryUser][]; total: number }> {
    // a stable order, so users created meanwhile land on later pages instead of shifting earlier ones
    const answer = await this.client.get(`/api/v2/users/?ordering=date_joined&page=${page}&page_size=${size}`);
    expectOk(answer, 'reading the user list');
    return {
      users: answer.body.data.map((user: DirectoryUser & { email: string }) => [user.email.toLowerCase(), pick(user)]),
      total: answer.body.meta.total_count,
    };
  }
}

const pick = (user: DirectoryUser): DirectoryUser => ({
  public_id: user.public_id,
  name: user.name,
  role: user.role,
  employee_id: user.employee_id,
});

function expectOk(answer: Pick<ApiAnswer, 'status' | 'body'>, doing: string): void {
  if (answer.status !== 200) {
    throw new StopError(`${doing} failed: ${answer.status} ${answer.body?.error?.code ?? ''} ${answer.body?.error?.message ?? ''}`.trim());
  }
}
