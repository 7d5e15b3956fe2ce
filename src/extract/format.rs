//! The envelope families toolmend recognises, their wire names, and the auto-detection order.

use std::fmt;
use std::str::FromStr;

/// One tool-call envelope family. Serialises as the peer-suite family name (`hermes`,
/// `qwen3-coder-xml`, …). Each variant's doc shows the literal syntax the model writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Format {
    /// `<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>` (Qwen 2.5, Hermes, Gemma 3 prompts).
    Hermes,
    /// `<tool_call><function=f><parameter=a>1</parameter></function></tool_call>` (Qwen3-Coder, Nemotron).
    Qwen3CoderXml,
    /// `<tool_call>f<arg_key>a</arg_key><arg_value>1</arg_value></tool_call>` (GLM 4.5 / 4.6).
    Glm45Xml,
    /// `<seed:tool_call><function=f><parameter=a>1</parameter></function></seed:tool_call>` (Seed-OSS).
    SeedOssXml,
    /// `<minimax:tool_call><invoke name="f"><parameter name="a">1</parameter></invoke></minimax:tool_call>`.
    MinimaxM2Xml,
    /// `<tool_calls>{"name": "f", "arguments": {…}}\n{…}</tool_calls>` (MiniMax-Text-01), one object a line.
    MinimaxV1,
    /// `<function name="f"><param name="a">1</param></function>` (MiniCPM 5).
    Minicpm5Xml,
    /// `<｜DSML｜function_calls><｜DSML｜invoke name="f"><｜DSML｜parameter name="a" string="false">1</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls>`.
    DeepseekDsml,
    /// `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{…}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>`.
    DeepseekV3,
    /// `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{…}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`.
    DeepseekV31,
    /// `<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{…}<|tool_call_end|><|tool_calls_section_end|>`.
    KimiK2,
    /// `<|tool_call>call:f{a:<|"|>text<|"|>,n:1}<tool_call|>` (Gemma 4).
    Gemma4,
    /// `<start_function_call>call:f{a:<escape>text<escape>}<end_function_call>` (FunctionGemma).
    Functiongemma,
    /// `<|tool_call_start|>[f(a=1, b="x")]<|tool_call_end|>` (LFM2).
    Lfm2Pythonic,
    /// `<|tool_call_start|>[{"name": "f", "arguments": {…}}]<|tool_call_end|>` (LFM2, JSON mode).
    Lfm2Json,
    /// `<function_calls>f(a=1)\ng(b='x')</function_calls>` (OLMo 3).
    Olmo3Pythonic,
    /// `[f(a=1), g(b='x')]` with no envelope (Llama 4, ToolACE).
    Pythonic,
    /// `<|python_tag|>f.call(a=1)` or `<|python_tag|>{"name": "f", "parameters": {…}}` (Llama 3.1).
    Llama3PythonTag,
    /// `{"name": "f", "parameters": {…}}` written alone or in prose (Llama 3.x JSON tool calling).
    Llama3Json,
    /// `{"name": "f", "arguments": {…}}` — a bare call object anywhere in the text.
    BareJson,
    /// `[{"name": "f", "arguments": {…}}, …]` — a bare array of call objects (xLAM).
    JsonArray,
    /// `{"tool_call": {"name": "f", "arguments": {…}}}` or `{"tool_calls": […]}` (llama.cpp generic).
    LlamacppGenericJson,
    /// `[TOOL_CALLS][{"name": "f", "arguments": {…}}]` (Mistral before v11).
    MistralJsonArray,
    /// `[TOOL_CALLS]f[ARGS]{…}` (Mistral v11+, Magistral, Devstral).
    MistralV11,
    /// `<tool_calls>[{"name": "f", "arguments": {…}}]</tool_calls>` (Apriel and others).
    ToolCallsArray,
    /// `<|tools_prefix|>[{"f": {…}}]<|tools_suffix|>` (Apertus).
    Apertus,
    /// `<TOOLCALL>[{"name": "f", "arguments": {…}}]</TOOLCALL>` (Nemotron).
    NemotronToolcallJson,
    /// `<|tool_call|>[{"name": "f", "arguments": {…}}]` (Granite 3.x).
    GraniteToolCallToken,
    /// `<function_call> {"name": "f", "arguments": {…}}` (Granite 20B function calling).
    Granite20bFc,
    /// `<functioncall> {"name": "f", "arguments": '{"a": 1}'}` (fine-tunes on Glaive's
    /// function-calling data; the arguments are often a single-quoted JSON string).
    Glaive,
    /// `<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "f", "parameters": {…}}]<|END_ACTION|>` (Command R7B / A).
    CommandRAction,
    /// `Action:\n```json\n[{"tool_name": "f", "parameters": {…}}]\n``` ` (Command R+).
    CommandRPlusFenced,
    /// `<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "f", "arguments": {…}}` (GigaChat).
    Gigachat,
    /// `<|channel|>commentary to=functions.f <|constrain|>json<|message|>{…}<|call|>` (gpt-oss Harmony).
    Harmony,
    /// ` to=user<|message|>text` / ` to=self<|message|>thoughts` (Glimmer, a Harmony dialect).
    Glimmer,
    /// `>>>f\n{…}` or, at the start of the output, `f\n{…}` (Functionary v3.2).
    FunctionaryV32,
    /// `<function=f>{…}</function>` (Functionary v3.1, Llama 3.1 custom tools).
    FunctionaryV31,
    /// `functools[{"name": "f", "arguments": {…}}]` (Phi-4-mini).
    Functools,
    /// `<tool_calls><tool_call>f<tool_sep><arg_key>a</arg_key><arg_value>1</arg_value></tool_call></tool_calls>` (Hunyuan v3).
    HunyuanV3,
    /// `<|action_start|><|plugin|>{"name": "f", "parameters": {…}}<|action_end|>` (InternLM 2).
    Internlm2,
    /// `<longcat_tool_call>{"name": "f", "arguments": {…}}</longcat_tool_call>` (LongCat).
    Longcat,
    /// `<｜tool_calls_begin｜><｜tool_call_begin｜><steptml:invoke name="f"><steptml:parameter name="a">1</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>` (Step 3).
    Step3,
    /// ```` ```json\n{"name": "f", "arguments": {…}}\n``` ```` — a fenced JSON call object or array.
    FencedJson,
    /// ```` ```tool_code\nf(a=1)\n``` ```` (Gemma 3's tool-code blocks).
    ToolCode,
    /// ```` ```python\nf(a=1)\n``` ```` — only when `f` is a known tool.
    FencedPython,
    /// `Action: f\nAction Input: {…}` (ReAct prompting).
    React,
    /// A known tool's name in prose followed by its arguments: `call f with {"a": 1}` or `f(a=1)`.
    Prose,
    /// No calls, only text (used as a family hint for plain chat models; never on a call).
    PlainContent,
}

/// Every family, in the order used by [`Format::name`] lookups.
pub const ALL: &[Format] = &[
    Format::Hermes,
    Format::Qwen3CoderXml,
    Format::Glm45Xml,
    Format::SeedOssXml,
    Format::MinimaxM2Xml,
    Format::MinimaxV1,
    Format::Minicpm5Xml,
    Format::DeepseekDsml,
    Format::DeepseekV3,
    Format::DeepseekV31,
    Format::KimiK2,
    Format::Gemma4,
    Format::Functiongemma,
    Format::Lfm2Pythonic,
    Format::Lfm2Json,
    Format::Olmo3Pythonic,
    Format::Pythonic,
    Format::Llama3PythonTag,
    Format::Llama3Json,
    Format::BareJson,
    Format::JsonArray,
    Format::LlamacppGenericJson,
    Format::MistralJsonArray,
    Format::MistralV11,
    Format::ToolCallsArray,
    Format::Apertus,
    Format::NemotronToolcallJson,
    Format::GraniteToolCallToken,
    Format::Granite20bFc,
    Format::Glaive,
    Format::CommandRAction,
    Format::CommandRPlusFenced,
    Format::Gigachat,
    Format::Harmony,
    Format::Glimmer,
    Format::FunctionaryV32,
    Format::FunctionaryV31,
    Format::Functools,
    Format::HunyuanV3,
    Format::Internlm2,
    Format::Longcat,
    Format::Step3,
    Format::FencedJson,
    Format::ToolCode,
    Format::FencedPython,
    Format::React,
    Format::Prose,
    Format::PlainContent,
];

impl Format {
    /// The wire name (the peer-suite family name for the families that have one).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Hermes => "hermes",
            Self::Qwen3CoderXml => "qwen3-coder-xml",
            Self::Glm45Xml => "glm45-xml",
            Self::SeedOssXml => "seed-oss-xml",
            Self::MinimaxM2Xml => "minimax-m2-xml",
            Self::MinimaxV1 => "minimax-v1",
            Self::Minicpm5Xml => "minicpm5-xml",
            Self::DeepseekDsml => "deepseek-dsml",
            Self::DeepseekV3 => "deepseek-v3",
            Self::DeepseekV31 => "deepseek-v3.1",
            Self::KimiK2 => "kimi-k2",
            Self::Gemma4 => "gemma4",
            Self::Functiongemma => "functiongemma",
            Self::Lfm2Pythonic => "lfm2-pythonic",
            Self::Lfm2Json => "lfm2-json",
            Self::Olmo3Pythonic => "olmo3-pythonic",
            Self::Pythonic => "pythonic",
            Self::Llama3PythonTag => "llama3-python-tag",
            Self::Llama3Json => "llama3-json",
            Self::BareJson => "bare-json",
            Self::JsonArray => "json-array",
            Self::LlamacppGenericJson => "llamacpp-generic-json",
            Self::MistralJsonArray => "mistral-json-array",
            Self::MistralV11 => "mistral-v11",
            Self::ToolCallsArray => "tool-calls-array",
            Self::Apertus => "apertus",
            Self::NemotronToolcallJson => "nemotron-toolcall-json",
            Self::GraniteToolCallToken => "granite-tool-call-token",
            Self::Granite20bFc => "granite-20b-fc",
            Self::Glaive => "glaive",
            Self::CommandRAction => "command-r-action",
            Self::CommandRPlusFenced => "command-r-plus-fenced",
            Self::Gigachat => "gigachat",
            Self::Harmony => "harmony",
            Self::Glimmer => "glimmer",
            Self::FunctionaryV32 => "functionary-v3.2",
            Self::FunctionaryV31 => "functionary-v3.1",
            Self::Functools => "functools",
            Self::HunyuanV3 => "hunyuan-v3",
            Self::Internlm2 => "internlm2",
            Self::Longcat => "longcat",
            Self::Step3 => "step3",
            Self::FencedJson => "fenced-json",
            Self::ToolCode => "tool-code",
            Self::FencedPython => "fenced-python",
            Self::React => "react",
            Self::Prose => "prose",
            Self::PlainContent => "plain-content",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The text was not the name of a known family.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown format `{name}`: use `auto` or one of: {known}")]
pub struct UnknownFormat {
    /// What was given.
    pub name: String,
    /// Every accepted name, comma-separated.
    pub known: String,
}

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        ALL.iter()
            .copied()
            .find(|f| f.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownFormat {
                name: s.to_owned(),
                known: ALL.iter().map(|f| f.name()).collect::<Vec<_>>().join(", "),
            })
    }
}

impl serde::Serialize for Format {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Format {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}
