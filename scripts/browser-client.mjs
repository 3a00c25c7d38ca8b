// A cookie-keeping HTTP client that signs in through the login form as a browser without
// JavaScript does (CSRF token and honeypot fields from the page), for the benchmark and the load
// test. Redirects are not followed: each answer is what the portal sent.

export class Browser {
  constructor(base) {
    this.base = base;
    this.cookies = new Map();
  }

  /** The Cookie header this browser sends. */
  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async fetch(path, init = {}) {
    const response = await fetch(new URL(path, this.base), {
      ...init,
      redirect: "manual",
      headers: { ...init.headers, Cookie: this.cookieHeader() },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const i = pair.indexOf("=");
      this.cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
    return response;
  }

  async signIn(username, userType, password = "Demo-pass-1") {
    const html = await (await this.fetch(`/login?userType=${userType}`)).text();
    const field = (name) => new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(html)?.[1] ?? "";
    const form = new URLSearchParams({
      csrf: field("csrf"),
      name__confirm: "",
      from__confirm: field("from__confirm"),
      userType,
      username,
      password,
    });
    const response = await this.fetch("/login", {
      method: "POST",
      body: form,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    if (response.status !== 302) throw new Error(`sign-in of ${username} answered ${response.status}`);
  }
}
