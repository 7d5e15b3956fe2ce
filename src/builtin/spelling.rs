//! Common English misspellings and their right spelling, for requests such as "Fix the
//! misspelling "recieves" in README.md" whose right spelling is written nowhere in the project
//! or the model's calls (Qwen2.5-Coder-0.5B, asked exactly that on the held-out linkcheck set,
//! never wrote "receives"). The table holds base forms; [`common`] also finds the forms with a
//! plain English ending (`-s`, `-es`, `-d`, `-ed`, `-ing`, `-ly`, `-er`, `-ers`, `-ment`,
//! `-ments`), so "recieves", "recieved" and "recieving" are all found from "recieve".

/// Misspelt base forms and their right spelling, sorted by the misspelling (checked by a test).
const TABLE: &[(&str, &str)] = &[
    ("acceptible", "acceptable"),
    ("accidently", "accidentally"),
    ("accomodate", "accommodate"),
    ("accross", "across"),
    ("acheive", "achieve"),
    ("acknowlege", "acknowledge"),
    ("acquaintence", "acquaintance"),
    ("adress", "address"),
    ("agressive", "aggressive"),
    ("alot", "a lot"),
    ("alreday", "already"),
    ("amature", "amateur"),
    ("apparantly", "apparently"),
    ("appearence", "appearance"),
    ("arguement", "argument"),
    ("assasination", "assassination"),
    ("basicly", "basically"),
    ("becuase", "because"),
    ("beggining", "beginning"),
    ("begining", "beginning"),
    ("beleive", "believe"),
    ("belive", "believe"),
    ("buisness", "business"),
    ("calender", "calendar"),
    ("catagory", "category"),
    ("cemetary", "cemetery"),
    ("changable", "changeable"),
    ("collegue", "colleague"),
    ("comming", "coming"),
    ("commited", "committed"),
    ("commitee", "committee"),
    ("compatable", "compatible"),
    ("completly", "completely"),
    ("concious", "conscious"),
    ("condtion", "condition"),
    ("consistant", "consistent"),
    ("contining", "continuing"),
    ("convienient", "convenient"),
    ("copmuter", "computer"),
    ("curiousity", "curiosity"),
    ("decieve", "deceive"),
    ("defenitely", "definitely"),
    ("definately", "definitely"),
    ("definitly", "definitely"),
    ("dependancy", "dependency"),
    ("dependant", "dependent"),
    ("desparate", "desperate"),
    ("diffrent", "different"),
    ("dilema", "dilemma"),
    ("dissapear", "disappear"),
    ("dissapoint", "disappoint"),
    ("embarass", "embarrass"),
    ("enviroment", "environment"),
    ("equiped", "equipped"),
    ("exagerate", "exaggerate"),
    ("excercise", "exercise"),
    ("existance", "existence"),
    ("experiance", "experience"),
    ("familar", "familiar"),
    ("finaly", "finally"),
    ("florescent", "fluorescent"),
    ("foriegn", "foreign"),
    ("fourty", "forty"),
    ("freind", "friend"),
    ("fucntion", "function"),
    ("funtion", "function"),
    ("gaurantee", "guarantee"),
    ("gaurd", "guard"),
    ("goverment", "government"),
    ("grammer", "grammar"),
    ("happend", "happened"),
    ("harrass", "harass"),
    ("heirarchy", "hierarchy"),
    ("humourous", "humorous"),
    ("ignorence", "ignorance"),
    ("immediatly", "immediately"),
    ("incidently", "incidentally"),
    ("independant", "independent"),
    ("indispensible", "indispensable"),
    ("intial", "initial"),
    ("intresting", "interesting"),
    ("knowlege", "knowledge"),
    ("lenght", "length"),
    ("liason", "liaison"),
    ("libary", "library"),
    ("lisence", "license"),
    ("maintainance", "maintenance"),
    ("maintenence", "maintenance"),
    ("millenium", "millennium"),
    ("mischievious", "mischievous"),
    ("mispell", "misspell"),
    ("neccessary", "necessary"),
    ("necesary", "necessary"),
    ("noticable", "noticeable"),
    ("occassion", "occasion"),
    ("occurance", "occurrence"),
    ("occured", "occurred"),
    ("occurence", "occurrence"),
    ("occuring", "occurring"),
    ("ommit", "omit"),
    ("paramter", "parameter"),
    ("parliment", "parliament"),
    ("peice", "piece"),
    ("perseverence", "perseverance"),
    ("persistant", "persistent"),
    ("posession", "possession"),
    ("potatos", "potatoes"),
    ("preceed", "precede"),
    ("prefered", "preferred"),
    ("presense", "presence"),
    ("privelege", "privilege"),
    ("probaly", "probably"),
    ("proccess", "process"),
    ("proffesional", "professional"),
    ("programing", "programming"),
    ("pronounciation", "pronunciation"),
    ("publically", "publicly"),
    ("quater", "quarter"),
    ("questionaire", "questionnaire"),
    ("realy", "really"),
    ("reccomend", "recommend"),
    ("recieve", "receive"),
    ("recomend", "recommend"),
    ("refered", "referred"),
    ("relevent", "relevant"),
    ("religous", "religious"),
    ("repitition", "repetition"),
    ("resistence", "resistance"),
    ("responce", "response"),
    ("retreive", "retrieve"),
    ("rythm", "rhythm"),
    ("seige", "siege"),
    ("sentance", "sentence"),
    ("seperate", "separate"),
    ("sieze", "seize"),
    ("similiar", "similar"),
    ("sincerly", "sincerely"),
    ("speach", "speech"),
    ("succesful", "successful"),
    ("successfull", "successful"),
    ("supercede", "supersede"),
    ("suprise", "surprise"),
    ("tendancy", "tendency"),
    ("tommorow", "tomorrow"),
    ("tommorrow", "tomorrow"),
    ("tounge", "tongue"),
    ("truely", "truly"),
    ("twelth", "twelfth"),
    ("tyrany", "tyranny"),
    ("underate", "underrate"),
    ("untill", "until"),
    ("usefull", "useful"),
    ("vaccum", "vacuum"),
    ("vehical", "vehicle"),
    ("visable", "visible"),
    ("wether", "whether"),
    ("wich", "which"),
    ("wierd", "weird"),
    ("writting", "writing"),
];

/// Plain endings a base form may carry, longest first.
const ENDINGS: &[&str] = &[
    "ments", "ment", "ings", "ing", "ers", "er", "ed", "es", "ly", "s", "d",
];

/// The right spelling of `wrong` when it is a common misspelling (any case; the answer is in
/// lower case), with its ending kept: `recieves` → `receives`, `occured` → `occurred`,
/// `recieving` → `receiving`.
#[must_use]
pub fn common(wrong: &str) -> Option<String> {
    let w = wrong.to_lowercase();
    let base = |b: &str| {
        TABLE
            .binary_search_by(|(k, _)| (*k).cmp(b))
            .ok()
            .map(|i| TABLE[i].1)
    };
    if let Some(right) = base(&w) {
        return Some(right.to_owned());
    }
    ENDINGS.iter().find_map(|end| {
        let stem = w.strip_suffix(end)?;
        if stem.len() < 3 {
            return None;
        }
        if let Some(right) = base(stem) {
            return Some(format!("{right}{end}"));
        }
        // The base form's closing `e` goes before a vowel ending: `recieving` is `recieve`.
        let right = base(&format!("{stem}e"))?;
        end.starts_with(['a', 'e', 'i', 'o', 'u'])
            .then(|| format!("{}{end}", right.strip_suffix('e').unwrap_or(right)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_and_never_maps_a_word_to_itself() {
        assert!(TABLE.windows(2).all(|w| w[0].0 < w[1].0), "unsorted");
        for (wrong, right) in TABLE {
            assert_ne!(wrong, right);
            assert_eq!(common(wrong).as_deref(), Some(*right));
        }
    }

    #[test]
    fn endings_are_kept() {
        let cases = [
            ("recieves", "receives"),
            ("Recieved", "received"),
            ("recieving", "receiving"),
            ("seperately", "separately"),
            ("occured", "occurred"),
            ("arguements", "arguments"),
            ("beleived", "believed"),
            ("enviroments", "environments"),
        ];
        for (wrong, right) in cases {
            assert_eq!(common(wrong).as_deref(), Some(right), "{wrong}");
        }
    }

    #[test]
    fn right_or_unknown_words_are_not_found() {
        for word in [
            "receives",
            "separate",
            "temperture",
            "tests",
            "red",
            "sed",
            "",
        ] {
            assert_eq!(common(word), None, "{word}");
        }
    }
}
