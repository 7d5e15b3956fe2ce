require "random/secure"

module Spire
  # Produces random short codes for links created without a custom slug.
  #
  # The alphabet leaves out characters that are easy to mistake for one
  # another when a link is printed or read aloud: 0/O and 1/l/I. With 57
  # symbols a 7-character code gives about 1.9 trillion combinations.
  class CodeGenerator
    ALPHABET = "23456789abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ"
    MAX_ATTEMPTS = 5

    class Exhausted < Exception
    end

    getter length : Int32

    def initialize(@length : Int32 = DEFAULT_SLUG_LENGTH, @random : Random = Random::Secure)
      unless SLUG_LENGTH_RANGE.includes?(@length)
        raise ArgumentError.new("code length must be within #{SLUG_LENGTH_RANGE}, got #{@length}")
      end
    end

    def generate : String
      String.build(@length) do |io|
        @length.times { io << ALPHABET[@random.rand(ALPHABET.size)] }
      end
    end

    # Draws codes until the block accepts one (returns a non-nil value),
    # skipping reserved words. Raises `Exhausted` after `MAX_ATTEMPTS`
    # collisions, which in practice means the code space is nearly full
    # and `slugs.length` should be raised.
    def claim(& : String -> T?) : T forall T
      MAX_ATTEMPTS.times do
        code = generate
        next if SlugValidator.reserved?(code)
        if result = yield code
          return result
        end
      end
      raise Exhausted.new("no free #{@length}-character code after #{MAX_ATTEMPTS} attempts")
    end
  end
end
