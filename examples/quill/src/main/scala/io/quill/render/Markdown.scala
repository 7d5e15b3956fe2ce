package io.quill.render

import java.util.Arrays

import com.vladsch.flexmark.ext.anchorlink.AnchorLinkExtension
import com.vladsch.flexmark.ext.gfm.strikethrough.StrikethroughExtension
import com.vladsch.flexmark.ext.tables.TablesExtension
import com.vladsch.flexmark.html.HtmlRenderer
import com.vladsch.flexmark.parser.Parser
import com.vladsch.flexmark.util.data.MutableDataSet

/** How note bodies are turned into HTML.
  *
  * Raw HTML in notes is escaped unless `allowRawHtml` is set; notes are
  * user content and are served from the same origin as the app.
  */
final case class RenderOptions(
  allowRawHtml: Boolean = false,
  headingAnchors: Boolean = true,
  tables: Boolean = true,
  softBreak: String = "<br />\n"
)

final class Markdown(options: RenderOptions = RenderOptions()) {

  private val settings = {
    val ds = new MutableDataSet()
    val exts = List(
      Some(StrikethroughExtension.create()),
      Option.when(options.tables)(TablesExtension.create()),
      Option.when(options.headingAnchors)(AnchorLinkExtension.create())
    ).flatten
    ds.set(Parser.EXTENSIONS, Arrays.asList(exts: _*))
    ds.set(HtmlRenderer.ESCAPE_HTML, java.lang.Boolean.valueOf(!options.allowRawHtml))
    ds.set(HtmlRenderer.SOFT_BREAK, options.softBreak)
    ds.toImmutable
  }

  private val parser   = Parser.builder(settings).build()
  private val renderer = HtmlRenderer.builder(settings).build()

  def toHtml(markdown: String): String = renderer.render(parser.parse(markdown))
}
