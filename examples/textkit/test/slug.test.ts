import { describe, expect, it } from "vitest";
import { slugify } from "../src/slug";

describe("slugify", () => {
  it("joins words with dashes", () => {
    expect(slugify("Hello, World!")).toBe("hello-world");
  });

  it("takes another separator", () => {
    expect(slugify("Hello World", "_")).toBe("hello_world");
  });
});
