package io.quill.render

class MarkdownSpec extends munit.FunSuite {

  test("escapes raw HTML by default") {
    val html = new Markdown().toHtml("<script>alert(1)</script>")
    assert(!html.contains("<script>"), html)
  }

  test("renders tables") {
    val html = new Markdown().toHtml("| a | b |\n|---|---|\n| 1 | 2 |")
    assert(html.contains("<table>"), html)
  }

  test("raw HTML can be allowed explicitly") {
    val html = new Markdown(RenderOptions(allowRawHtml = true)).toHtml("<kbd>Ctrl</kbd>")
    assert(html.contains("<kbd>Ctrl</kbd>"), html)
  }
}
