package io.quill.store

import cats.effect.IO
import munit.CatsEffectSuite

class NoteStoreSpec extends CatsEffectSuite {

  test("PageRequest clamps the limit") {
    assertEquals(PageRequest(limit = 5000).clamped.limit, PageRequest.MaxLimit)
    assertEquals(PageRequest(limit = 0).clamped.limit, 1)
    assertEquals(PageRequest(limit = 5, offset = -3).clamped, PageRequest(5, 0))
  }

  test("slugs use the configured length and alphabet") {
    val settings = SlugSettings(length = 6, alphabet = "ab")
    NoteStore.slug(settings).map { s =>
      assertEquals(s.length, 6)
      assert(s.forall("ab".contains(_)))
    }
  }

  test("slugs avoid look-alike characters by default") {
    IO.parSequenceN(4)(List.fill(50)(NoteStore.slug())).map { slugs =>
      assert(slugs.forall(s => !s.exists("01ilo".contains(_))))
    }
  }
}
